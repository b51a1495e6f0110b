// App-wide notifications (SPEC §9 "at most 5 notifications at once"): a stack of alerts in the corner;
// a sixth pushes the oldest out. Each closes by itself after a while or with its close button, or when
// the screen that raised it calls the dismiss function notify returns (its problem was fixed).
import type { AlertColor } from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useT } from '../i18n/LocaleProvider';
import type { ShownNotification } from './NotificationStack';
import { shellStrings } from './strings';

const NotificationStack = lazy(() => import('./NotificationStack'));

export const MAX_NOTIFICATIONS = 5;
const AUTO_CLOSE_MS = 6000;

/** Shows a notification; the returned function takes it away again. */
type Notify = (message: string, severity?: AlertColor) => () => void;

const NotificationsContext = createContext<Notify | undefined>(undefined);

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ShownNotification[]>([]);
  const nextId = useRef(1);

  const close = useCallback((id: number) => setItems((current) => current.filter((n) => n.id !== id)), []);

  const notify = useCallback<Notify>(
    (message, severity = 'info') => {
      const id = nextId.current++;
      setItems((current) => [...current, { id, message, severity }].slice(-MAX_NOTIFICATIONS));
      setTimeout(() => close(id), AUTO_CLOSE_MS);
      return () => close(id);
    },
    [close],
  );

  const value = useMemo(() => notify, [notify]);
  const t = useT();
  return (
    <NotificationsContext.Provider value={value}>
      {children}
      <Stack
        spacing={1}
        aria-label={t(shellStrings.notifications)}
        role="region"
        sx={{
          position: 'fixed',
          bottom: 16,
          right: 16,
          left: { xs: 16, sm: 'auto' },
          zIndex: 1400,
          maxWidth: 400,
        }}
      >
        {items.length > 0 && (
          <Suspense fallback={null}>
            <NotificationStack items={items} onClose={close} />
          </Suspense>
        )}
      </Stack>
    </NotificationsContext.Provider>
  );
}

export function useNotify(): Notify {
  const notify = useContext(NotificationsContext);
  if (!notify) throw new Error('useNotify must be used inside NotificationsProvider');
  return notify;
}
