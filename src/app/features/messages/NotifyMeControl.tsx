// The opt-in to system notifications (new messages, appointment changes) while Bloom is open in the
// background: the browser's permission is asked only when she turns it on here, never on page load.
// Her choice is remembered on the device (system-notifications/notificationChoice.ts); a browser that
// blocks notifications, or has none, is said so plainly.
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import { useId, useState } from 'react';
import type { NoticePermission } from '../../system-notifications/noticeRules';
import { setNotificationChoice, useNotificationChoice } from '../../system-notifications/notificationChoice';

import { useT } from '../../i18n/LocaleProvider';
import { messagesStrings as s } from './strings';

export const NOTIFY_ME_LABEL = s.notifyLabel;

export const NOTIFY_ME_HELP = {
  on: s.notifyOn,
  off: s.notifyOff,
  denied: s.notifyDenied,
  unsupported: s.notifyUnsupported,
} as const;

function browserPermission(): NoticePermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export function NotifyMeControl({ patient }: { patient: string }) {
  const chosen = useNotificationChoice(patient);
  const [permission, setPermission] = useState<NoticePermission>(browserPermission);
  const [asking, setAsking] = useState(false);
  const helpId = useId();
  const t = useT();
  const on = chosen && permission === 'granted';

  async function change(next: boolean) {
    if (!next) {
      setNotificationChoice(patient, false);
      return;
    }
    let answer = browserPermission();
    if (answer === 'default') {
      setAsking(true);
      try {
        answer = await Notification.requestPermission();
      } finally {
        setAsking(false);
      }
    }
    setPermission(answer);
    setNotificationChoice(patient, answer === 'granted');
  }

  const help =
    permission === 'unsupported'
      ? NOTIFY_ME_HELP.unsupported
      : permission === 'denied'
        ? NOTIFY_ME_HELP.denied
        : on
          ? NOTIFY_ME_HELP.on
          : NOTIFY_ME_HELP.off;

  return (
    <Box sx={{ mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={on}
            disabled={asking || permission === 'unsupported'}
            onChange={(event) => void change(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
        label={t(NOTIFY_ME_LABEL)}
      />
      <Typography id={helpId} variant="body2" color="text.secondary" aria-live="polite">
        {t(help)}
      </Typography>
    </Box>
  );
}
