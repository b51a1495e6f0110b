// Client-side check of an email field (SPEC §5 "Email required and of email type"), with the same rule the
// browser applies to <input type="email"> (WHATWG valid e-mail address), so messages are consistent.
// The message is in the app's language at the time of the check.
import { translate } from '../i18n/i18n';
import { shellStrings } from './strings';

const validEmail =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** A message for the user, or undefined when the value is a valid email address. */
export function validateEmail(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return translate(shellStrings.emailRequired);
  if (!validEmail.test(trimmed)) return translate(shellStrings.emailInvalid);
  return undefined;
}
