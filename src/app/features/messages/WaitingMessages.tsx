// Her messages written without a network, at the end of the thread until they reach the server: each
// says whether it is waiting for the network, being sent, or refused (with the server's reason and a
// way to dismiss it). They come from the page's queue of offline writes (src/app/offline/offlineWrites.ts).
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { Communication } from '@medplum/fhirtypes';
import type { QueuedWrite } from '../../../client/offline-writes';
import { OWN_BUBBLE } from './MessageItem';
import { useT } from '../../i18n/LocaleProvider';
import type { Message } from '../../i18n/catalog';
import { messagesStrings as s } from './strings';

const STATE_WORDS: Record<QueuedWrite['state'], Message> = {
  waiting: s.waiting,
  sending: s.sending,
  failed: s.notSent,
};

function textOf(write: QueuedWrite): string {
  const resource = write.resource as Communication;
  return (resource.payload ?? []).map((part) => part.contentString ?? '').find(Boolean) ?? write.label;
}

export function WaitingMessages({
  writes,
  onDismiss,
}: {
  writes: readonly QueuedWrite[];
  onDismiss: (key: string) => void;
}) {
  const t = useT();
  if (writes.length === 0) return null;
  return (
    <Box component="ol" aria-label={t(s.waitingList)} sx={{ listStyle: 'none', m: 0, p: 0, pb: 1 }}>
      {writes.map((write) => (
        <Box
          component="li"
          key={write.key}
          data-state={write.state}
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', py: 1 }}
        >
          <Box
            sx={{
              px: 1.5,
              py: 1,
              borderRadius: 2,
              bgcolor: OWN_BUBBLE,
              maxWidth: { xs: '100%', sm: '75%' },
              overflowWrap: 'anywhere',
            }}
          >
            <Typography sx={{ whiteSpace: 'pre-wrap' }}>{textOf(write)}</Typography>
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ mt: 0.5 }}>
            {t(STATE_WORDS[write.state])}
            {write.error ? `: ${write.error}` : ''}
          </Typography>
          {write.state === 'failed' && (
            <Button size="small" onClick={() => onDismiss(write.key)}>
              {t(s.dismiss)}
            </Button>
          )}
        </Box>
      ))}
    </Box>
  );
}
