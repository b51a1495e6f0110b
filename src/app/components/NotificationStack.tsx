// The visible stack of notifications (SPEC §9), a lazy chunk of Notifications: pages that never notify
// (the landing page) do not download MUI's Alert.
import Alert, { type AlertColor } from '@mui/material/Alert';
import { useT } from '../i18n/LocaleProvider';
import { shellStrings } from './strings';

export interface ShownNotification {
  readonly id: number;
  readonly message: string;
  readonly severity: AlertColor;
}

export default function NotificationStack({
  items,
  onClose,
}: {
  items: readonly ShownNotification[];
  onClose: (id: number) => void;
}) {
  const t = useT();
  // MUI's close button says 'Close' in English unless told otherwise.
  const closeText = t(shellStrings.close);
  return items.map((item) => (
    <Alert
      key={item.id}
      severity={item.severity}
      variant="filled"
      closeText={closeText}
      onClose={() => onClose(item.id)}
    >
      {item.message}
    </Alert>
  ));
}
