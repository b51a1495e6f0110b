// Sending a message: the file first (POST Binary with upload progress, SPEC §7), her
// thread header when the screen holds none (found, else opened: components/patientThread.ts), then
// the Communication partOf it (newMessage), then the header PATCHed with the message's `sent`, as Medplum's ThreadChat does, so both apps leave the
// same data. A failure leaves the draft with the composer and is reported, so the patient knows the
// message did not go and can try again (the spec only logs it). A file uploaded or a header created
// before the Communication failed is not made again on the retry. The message is sent once it exists:
// a failed PATCH of the header only leaves its `sent` older.
// Without a network the message joins the page's queue of offline writes (src/app/offline/offlineWrites.ts,
// the one the vitals entry uses) with its Idempotency-Key, and is sent once when the network returns; a
// file or a first message (which must open a thread) waits for the network instead. A queued message
// leaves the header's `sent` as it was: the queue only creates.
import type { Attachment, Communication, Patient } from '@medplum/fhirtypes';
import { useCallback, useRef, useState } from 'react';
import type { QueuedWrite } from '../../../client/offline-writes';
import { createReference } from '../../../fhir/references';
import { useOfflineWrites } from '../../offline/offlineWrites';
import { useBloomClient } from '../../session/BloomClientContext';
import { findOrOpenThread, touchThread } from '../../components/patientThread';
import { recipientsOf, type ThreadTarget } from '../../../fhir/message-threads';
import { newMessage, type MessageDraft } from './newMessage';
import type { Message } from '../../i18n/catalog';
import { messagesStrings as s } from './strings';

export type SendState =
  | { readonly phase: 'idle' }
  /** `percent` is undefined while the size is unknown. */
  | { readonly phase: 'uploading'; readonly fileName: string; readonly percent: number | undefined }
  | { readonly phase: 'sending' }
  /** `reason`: the server's words, or one of ours to translate. */
  | { readonly phase: 'failed'; readonly reason: string | Message };

/** 'sent': the Communication exists; 'queued': kept on the device until the network returns. */
export type SendOutcome = 'sent' | 'queued' | 'failed';

export const OFFLINE_REASONS = {
  file: s.offlineFile,
  firstMessage: s.offlineFirst,
} as const;

export interface SendMessage {
  readonly state: SendState;
  /** Her messages written offline and not yet on the server, oldest first. */
  readonly waiting: readonly QueuedWrite[];
  /** Resolves 'failed' when sending failed (see state.reason). */
  send(draft: MessageDraft): Promise<SendOutcome>;
  dismiss(key: string): void;
}

function reasonOf(error: unknown): string | Message {
  return error instanceof Error && error.message ? error.message : s.somethingWrong;
}

/**
 * `author`: a care-team member writing into the patient's thread (her chart); without it the patient
 * writes herself.
 */
export function useSendMessage(
  patient: Patient | undefined,
  thread: ThreadTarget | undefined,
  author?: Communication['sender'],
): SendMessage {
  const client = useBloomClient();
  const patientReference = patient?.id ? `Patient/${patient.id}` : 'none';
  const { writes: waiting, save, dismiss } = useOfflineWrites(`messages/${patientReference}`);
  const [state, setState] = useState<SendState>({ phase: 'idle' });
  const uploaded = useRef<{ file: File; attachment: Attachment } | undefined>(undefined);
  const opened = useRef<Communication | undefined>(undefined);

  const upload = useCallback(
    async (file: File): Promise<Attachment> => {
      if (uploaded.current?.file === file) return uploaded.current.attachment;
      setState({ phase: 'uploading', fileName: file.name, percent: 0 });
      const attachment = await client.createAttachment({
        data: file,
        filename: file.name,
        contentType: file.type || 'application/octet-stream',
        onProgress: ({ loaded, total, lengthComputable }) =>
          setState({
            phase: 'uploading',
            fileName: file.name,
            percent:
              lengthComputable && total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : undefined,
          }),
      });
      const withSize = { ...attachment, size: file.size };
      uploaded.current = { file, attachment: withSize };
      return withSize;
    },
    [client],
  );

  const send = useCallback(
    async ({ text, file }: MessageDraft): Promise<SendOutcome> => {
      if (!patient) return 'failed';
      const browserOffline = navigator.onLine === false;
      const known = thread?.id ? thread : opened.current;
      if (browserOffline && (file || !known)) {
        setState({ phase: 'failed', reason: file ? OFFLINE_REASONS.file : OFFLINE_REASONS.firstMessage });
        return 'failed';
      }
      try {
        const attachment = file ? await upload(file) : undefined;
        setState({ phase: 'sending' });
        const patientRef = createReference(patient);
        const header: ThreadTarget =
          (thread?.id ? thread : undefined) ??
          // None on the screen: one may have been opened elsewhere since (Get Care, a Medplum app).
          (opened.current ??= await findOrOpenThread(
            client,
            patientRef,
            author ? [author] : patient.generalPractitioner,
            author,
          ));
        const participants = recipientsOf(header.recipient);
        const sent = new Date();
        const saved = await save(
          newMessage({
            thread: `Communication/${header.id ?? ''}`,
            patient: patientRef,
            sender: author,
            recipients:
              participants.length > 1 ? participants : author ? [patientRef] : patient.generalPractitioner,
            text,
            attachment,
            sent,
          }),
          text.trim(),
        );
        if (saved === 'queued') {
          uploaded.current = undefined;
          setState({ phase: 'idle' });
          return 'queued';
        }
        // `opened` stays: until the screen's query holds the new header, a next message joins it too.
        uploaded.current = undefined;
        if (header.id) await touchThread(client, header.id, sent.toISOString());
        setState({ phase: 'idle' });
        return 'sent';
      } catch (error) {
        setState({ phase: 'failed', reason: reasonOf(error) });
        return 'failed';
      }
    },
    [client, patient, thread, upload, author, save],
  );

  return { state, send, waiting, dismiss };
}
