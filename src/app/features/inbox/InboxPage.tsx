// /inbox: a care-team member's message threads across her patients, most recently active first, with
// unread counts; each opens the thread in the patient's chart, where she reads and replies (and the
// patient sees the reply live). One GraphQL request (InboxThreads), read again live on each Communication
// to her (InboxCommunicationChanged): an alert a bot raises shows at once, marked Urgent.
import { useQuery, useSubscription } from '@apollo/client/react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { InboxCommunicationChangedDocument, InboxThreadsDocument } from '../../../graphql';
import { DateTimeDisplay } from '../../components/DateTimeDisplay';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import { useSession } from '../../session/BloomClientContext';
import { inboxRows } from './inboxThreads';

export function InboxPage() {
  const { profile } = useSession();
  const reader = profile?.id ? `${profile.resourceType}/${profile.id}` : '';
  const { data, loading, error, refetch } = useQuery(InboxThreadsDocument, {
    // Read receipts written in a chart change the counts: read again on each visit.
    fetchPolicy: 'cache-and-network',
  });
  // Live: a Communication to her (a message, an alert from a bot) reads the threads again.
  useSubscription(InboxCommunicationChangedDocument, {
    variables: { recipient: reader },
    skip: !reader,
    onData: () => void refetch(),
  });
  const rows = useMemo(() => inboxRows(data, reader), [data, reader]);
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 2, sm: 4 } }}>
      <PageHeading title="Inbox" />
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {loading && !data && <LoadingState label="Loading messages" />}
      {data && rows.length === 0 && <EmptyState text="No message threads yet" />}
      {rows.length > 0 && (
        <Box
          component="ul"
          aria-label="Message threads"
          sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}
        >
          {rows.map((row) => (
            <Paper component="li" key={row.id} variant="outlined" sx={{ p: 2 }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
                <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {row.patientId ? (
                    <Link
                      component={RouterLink}
                      to={`/patients/${encodeURIComponent(row.patientId)}/messages`}
                    >
                      {row.patientName}
                    </Link>
                  ) : (
                    row.patientName
                  )}
                </Typography>
                {row.urgent && <Chip size="small" color="error" label="Urgent" />}
                {row.unread > 0 && <Chip size="small" color="primary" label={`${row.unread} unread`} />}
                {row.sent && (
                  <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto' }}>
                    <DateTimeDisplay value={row.sent} />
                  </Typography>
                )}
              </Box>
              <Typography variant="body2" color="text.secondary">
                {row.topic}
              </Typography>
              <Typography sx={{ overflowWrap: 'anywhere' }}>{row.preview}</Typography>
            </Paper>
          ))}
        </Box>
      )}
    </Box>
  );
}

export default InboxPage;
