// Sending a message (issue #8): the file first (POST Binary with upload progress, SPEC §7), then the
// Communication (newMessage). A failure leaves the draft with the composer and is reported, so the
// patient knows the message did not go and can try again (the spec only logs it). A file that was
// uploaded before the Communication failed is not uploaded again on the retry.
import type { Attachment, Patient } from '@medplum/fhirtypes';
import { useCallback, useRef, useState } from 'react';
import { createReference } from '../../../fhir/references';
import { useBloomClient } from '../../session/BloomClientContext';
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

export function useSendMessage(patient: Patient | undefined): SendMessage {
  const client = useBloomClient();
  const [state, setState] = useState<SendState>({ phase: 'idle' });
  const uploaded = useRef<{ file: File; attachment: Attachment } | undefined>(undefined);

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
        await client.createResource(
          newMessage({
            patient: createReference(patient),
            recipients: patient.generalPractitioner,
            text,
            attachment,
            sent: new Date(),
          }),
        );
        uploaded.current = undefined;
        setState({ phase: 'idle' });
        return true;
      } catch (error) {
        setState({ phase: 'failed', reason: reasonOf(error) });
        return false;
      }
    },
    [client, patient, upload],
  );

  return { state, send };
}
