// Client-side check of an email field (SPEC §5 "Email required and of email type"), with the same rule the
// browser applies to <input type="email"> (WHATWG valid e-mail address), so messages are consistent.
const validEmail =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** A message for the user, or undefined when the value is a valid email address. */
export function validateEmail(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return 'Email is required';
  if (!validEmail.test(trimmed)) return 'Enter a valid email address, like name@example.com';
  return undefined;
}
