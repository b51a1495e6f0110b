// The Communication a patient's message becomes (SPEC §3 Communication; §7 "Create Communication
// (message or appointment request)"): status completed, partOf her thread header (as Medplum's
// ThreadChat writes a message), subject and sender her Patient, sent now, categorised as a message (an
// appointment request has its own category), addressed to the thread's other participants (else her
// general practitioners), and one payload per part: the text as contentString, the uploaded file as
// contentAttachment. The form refuses an empty message before this is built. Her first message opens
// the thread (src/fhir/message-threads.ts).
import type { Attachment, Communication, Patient, Reference } from '@medplum/fhirtypes';
import { MESSAGE_CATEGORY, recipientsOf } from '../../../fhir/message-threads';
import type { Message } from '../../i18n/catalog';
import { messagesStrings as s } from './strings';

/** Longest text a message may carry; longer ones are refused in the form. */
export const MAX_MESSAGE_LENGTH = 5000;
/** Largest file a message may carry: the server's default Binary limit (BINARY_MAX_SIZE). */
export const MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024;

export const DRAFT_ERRORS = {
  empty: s.emptyDraft,
  tooLong: s.tooLong,
  fileTooLarge: s.fileTooLarge,
  emptyFile: s.emptyFile,
} as const;

/** The values DRAFT_ERRORS' messages name. */
export const DRAFT_LIMITS = { max: MAX_MESSAGE_LENGTH, mb: MAX_ATTACHMENT_BYTES / (1024 * 1024) } as const;

export interface MessageDraft {
  readonly text: string;
  readonly file: File | undefined;
}

/** Why this draft cannot be sent, or undefined when it can. */
export function draftProblem({ text, file }: MessageDraft): Message | undefined {
  if (file && file.size === 0) return DRAFT_ERRORS.emptyFile;
  if (file && file.size > MAX_ATTACHMENT_BYTES) return DRAFT_ERRORS.fileTooLarge;
  if (text.length > MAX_MESSAGE_LENGTH) return DRAFT_ERRORS.tooLong;
  if (text.trim() === '' && !file) return DRAFT_ERRORS.empty;
  return undefined;
}

export interface NewMessage {
  /** Her thread header, `Communication/<id>`. */
  readonly thread: string;
  readonly patient: Reference<Patient>;
  /** Who writes it when not the patient herself (a care-team member answering in her thread). */
  readonly sender?: Communication['sender'];
  readonly recipients: readonly Reference[] | undefined;
  readonly text: string;
  readonly attachment: Attachment | undefined;
  readonly sent: Date;
}

export function newMessage({
  thread,
  patient,
  sender = patient as NonNullable<Communication['sender']>,
  recipients,
  text,
  attachment,
  sent,
}: NewMessage): Communication {
  const recipient = recipientsOf(recipients, sender?.reference);
  const trimmed = text.trim();
  return {
    resourceType: 'Communication',
    status: 'completed',
    partOf: [{ reference: thread }],
    category: [{ coding: [MESSAGE_CATEGORY], text: MESSAGE_CATEGORY.display }],
    subject: patient,
    sender,
    ...(recipient.length > 0 ? { recipient } : {}),
    sent: sent.toISOString(),
    payload: [
      ...(trimmed ? [{ contentString: trimmed }] : []),
      ...(attachment ? [{ contentAttachment: attachment }] : []),
    ],
  };
}
