// The writes a screen made without a network, with their state: waiting for the network, being sent,
// or refused by the server (with its reason, and a way to dismiss it). Nothing when there are none.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { QueuedWrite } from '../../client/offline-writes';
import type { Message } from '../i18n/catalog';
import { useT } from '../i18n/LocaleProvider';
import { DateTimeDisplay } from './DateTimeDisplay';
import { shellStrings as m } from './strings';

const STATE_WORDS: Record<QueuedWrite['state'], Message> = {
  waiting: m.queuedWaiting,
  sending: m.queuedSending,
  failed: m.queuedFailed,
};

export function QueuedWritesList({
  writes,
  onDismiss,
  label,
}: {
  writes: readonly QueuedWrite[];
  onDismiss: (key: string) => void;
  label: string;
}) {
  const t = useT();
  if (writes.length === 0) return null;
  return (
    <Box component="section" aria-label={label} sx={{ mt: 2 }}>
      <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600, mb: 1 }}>
        {label}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {writes.map((write) => (
          <Box
            component="li"
            key={write.key}
            data-state={write.state}
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', py: 0.5 }}
          >
            <span>{write.label}</span>
            <Typography component="span" variant="body2" color="text.secondary">
              {t(m.queuedEntered)} <DateTimeDisplay value={write.queuedAt} />) {t(STATE_WORDS[write.state])}
              {write.error ? `: ${write.error}` : ''}
            </Typography>
            {write.state === 'failed' && (
              <Button size="small" onClick={() => onDismiss(write.key)}>
                {t(m.dismiss)}
              </Button>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
