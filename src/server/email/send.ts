// POST email/v1/send (Medplum's sendEmail): a project admin sends a plain-text email
// through the server's mailer (SMTP when configured, else DATA_DIR/outbox/). Every field checked.
import { allOk, forbidden, OperationOutcomeError } from '../../fhir';
import type { OperationOutcome } from '@medplum/fhirtypes';
import type { ServerServices } from '../services';
import type { AuthState } from '../auth/authenticate';
import type { Fields } from '../auth/request-fields';
import { fieldError, requiredEmail, requiredString } from '../auth/request-fields';
import type { Email } from '../auth/mailer';

export const MAX_RECIPIENTS = 50;
/** RFC 5322's line limit keeps the subject on one header line. */
export const MAX_SUBJECT_LENGTH = 998;
export const MAX_TEXT_LENGTH = 100_000;
/** Medplum's fields that this mailer cannot send: refused by name rather than dropped silently. */
const UNSUPPORTED_FIELDS = ['cc', 'bcc', 'html', 'attachments', 'from', 'replyTo'];

export function checkMaySendEmail(auth: AuthState): void {
  if (auth.membership.admin !== true && auth.project.superAdmin !== true) {
    throw new OperationOutcomeError(forbidden);
  }
}

function readRecipients(fields: Fields): string[] {
  const to = fields.to;
  const list = Array.isArray(to) ? to : [to];
  if (list.length === 0 || list.length > MAX_RECIPIENTS) {
    throw fieldError(`to must name 1 to ${MAX_RECIPIENTS} recipients`, 'to');
  }
  return list.map((value) => requiredEmail({ to: value }, 'to'));
}

export function readEmail(fields: Fields): Email {
  for (const name of UNSUPPORTED_FIELDS) {
    if (fields[name] !== undefined) {
      throw fieldError(`${name} is not supported: send plain text to 'to' recipients`, name);
    }
  }
  const subject = requiredString(fields, 'subject', 'Subject', MAX_SUBJECT_LENGTH);
  if (/[\r\n]/.test(subject)) {
    throw fieldError('Subject must be one line', 'subject');
  }
  return {
    to: readRecipients(fields).join(', '),
    subject,
    text: requiredString(fields, 'text', 'Text', MAX_TEXT_LENGTH),
  };
}

export async function sendEmail(
  deps: ServerServices,
  auth: AuthState,
  fields: Fields,
): Promise<OperationOutcome> {
  checkMaySendEmail(auth);
  await deps.mailer.send(readEmail(fields));
  return allOk;
}
