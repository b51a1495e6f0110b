// Sending a message: the file first (POST Binary with upload progress, SPEC §7), her
// thread header when the screen holds none (found, else opened: components/patientThread.ts), then
// the Communication partOf it (newMessage), then the header PATCHed with the message's `sent`, as Medplum's ThreadChat does, so both apps leave the
// same data. A failure leaves the draft with the composer and is reported, so the patient knows the
// message did not go and can try again (the spec only logs it). A file uploaded or a header created
// before the Communication failed is not made again on the retry. The message is sent once it exists:
// a failed PATCH of the header only leaves its `sent` older.
import type { Attachment, Communication, Patient } from '@medplum/fhirtypes';
import { useCallback, useRef, useState } from 'react';
import { createReference } from '../../../fhir/references';
import { useBloomClient } from '../../session/BloomClientContext';
import { findOrOpenThread, touchThread } from '../../components/patientThread';
import { recipientsOf, type ThreadTarget } from '../../../fhir/message-threads';
import { newMessage, type MessageDraft } from './newMessage';

export type SendState =
  | { readonly phase: 'idle' }
  /** `percent` is undefined while the size is unknown. */
  | { readonly phase: 'uploading'; readonly fileName: string; readonly percent: number | undefined }
  | { readonly phase: 'sending' }
  | { readonly phase: 'failed'; readonly reason: string };

export interface SendMessage {
  readonly state: SendState;
  /** Resolves true once the Communication exists, false when sending failed (see state.reason). */
  send(draft: MessageDraft): Promise<boolean>;
}

function reasonOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong';
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
    async ({ text, file }: MessageDraft): Promise<boolean> => {
      if (!patient) return false;
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
        await client.createResource(
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
        );
        // `opened` stays: until the screen's query holds the new header, a next message joins it too.
        uploaded.current = undefined;
        if (header.id) await touchThread(client, header.id, sent.toISOString());
        setState({ phase: 'idle' });
        return true;
      } catch (error) {
        setState({ phase: 'failed', reason: reasonOf(error) });
        return false;
      }
    },
    [client, patient, thread, upload, author],
  );

  return { state, send };
}
