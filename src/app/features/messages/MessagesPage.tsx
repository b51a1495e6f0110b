// messages/* (SPEC §2 "Messaging with the care provider"; §3 Communication; §7 CommunicationList by
// subject, Create Communication, Binary): the patient's conversation with her care team,
// her thread as Medplum's ThreadChat keeps it (a header, messages partOf it),
// live, and the composer. One GraphQL request loads the screen; the live
// subscription and the REST writes (Binary, Communication) come on top. A visually hidden live region
// tells screen-reader users of new messages and of a message sent.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Communication, Patient } from '@medplum/fhirtypes';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { EmptyState, LoadError, LoadingState } from '../../components/ListStates';
import { PageHeading } from '../../components/PageHeading';
import { useSession } from '../../session/BloomClientContext';
import { useT } from '../../i18n/LocaleProvider';
import { messagesStrings as s } from './strings';
import { MessageComposer } from './MessageComposer';
import { MessageThread } from './MessageThread';
import { NotifyMeControl } from './NotifyMeControl';
import type { MessageDraft } from './newMessage';
import { useMessageThread } from './useMessageThread';
import { useReadReceipts } from './useReadReceipts';
import { useSendMessage } from './useSendMessage';

// Strings, not numbers: MUI's sx reads width 1 as 100%.
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

/**
 * Whose thread: the patient of the route (/patients/{id}/messages, a care-team member's chart: she
 * writes as herself) or the signed-in patient.
 */
function useThreadPeople(): {
  patient: Patient | undefined;
  author: Communication['sender'];
  loading: boolean;
} {
  const { patientId } = useParams();
  const { profile, loading } = useSession();
  const routePatient = useMemo<Patient | undefined>(
    () =>
      patientId !== undefined && FHIR_ID.test(patientId)
        ? { resourceType: 'Patient', id: patientId }
        : undefined,
    [patientId],
  );
  const author = useMemo<Communication['sender']>(
    () =>
      profile?.id && (profile.resourceType === 'Practitioner' || profile.resourceType === 'Patient')
        ? { reference: `${profile.resourceType}/${profile.id}` }
        : undefined,
    [profile],
  );
  if (patientId !== undefined) return { patient: routePatient, author: routePatient && author, loading };
  const own = profile?.resourceType === 'Patient' && profile.id ? profile : undefined;
  return { patient: own, author: undefined, loading };
}

export function MessagesPage() {
  const { patient, author, loading: sessionLoading } = useThreadPeople();
  const subject = patient ? `Patient/${patient.id}` : undefined;
  const thread = useMessageThread(subject);
  const sender = useSendMessage(patient, thread.thread, author);
  useReadReceipts(author?.reference, thread.messages);
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement(text), []);
  const { refreshNewest } = thread;
  const t = useT();

  const send = useCallback(
    async (draft: MessageDraft) => {
      const outcome = await sender.send(draft);
      if (outcome === 'sent') {
        announce(t(s.sent));
        // The new message with its sender and a viewable attachment URL, even if the live socket is down.
        void refreshNewest().catch(() => undefined);
      }
      if (outcome === 'queued') announce(t(s.queued));
      return outcome !== 'failed';
    },
    [sender, announce, refreshNewest, t],
  );

  // A message written offline reached the server: the thread fetches it (the socket may still be
  // reconnecting), while the waiting copy leaves the thread.
  const waitingCount = sender.waiting.filter((write) => write.state !== 'failed').length;
  const waitedBefore = useRef(waitingCount);
  useEffect(() => {
    if (waitingCount < waitedBefore.current) void refreshNewest().catch(() => undefined);
    waitedBefore.current = waitingCount;
  }, [waitingCount, refreshNewest]);

  return (
    <Box sx={{ maxWidth: 860, mx: 'auto', px: { xs: 2, sm: 3 }, py: { xs: 2, sm: 4 } }}>
      <PageHeading title={t(s.title)} />
      <Typography color="text.secondary" sx={{ mt: -1, mb: 2 }}>
        {t(author ? s.introStaff : s.introPatient)}
      </Typography>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
      {patient && !author && <NotifyMeControl patient={`Patient/${patient.id ?? ''}`} />}
      {!patient && !sessionLoading && <EmptyState text={t(s.notPatient)} />}
      {thread.error && <LoadError error={thread.error} onRetry={thread.retry} />}
      {((thread.loading && !thread.loaded) || (sessionLoading && !patient)) && (
        <LoadingState label={t(s.loading)} />
      )}
      {patient && subject && thread.loaded && (
        <MessageThread
          messages={thread.messages}
          ownReference={author?.reference ?? subject}
          hasOlder={thread.hasOlder}
          loadingOlder={thread.loadingOlder}
          olderError={thread.olderError}
          onLoadOlder={thread.loadOlder}
          onNewMessage={announce}
          waiting={sender.waiting}
          onDismissWaiting={sender.dismiss}
        />
      )}
      {thread.liveError && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t(s.notLive)}
        </Typography>
      )}
      {patient && thread.loaded && <MessageComposer state={sender.state} onSend={send} />}
    </Box>
  );
}
