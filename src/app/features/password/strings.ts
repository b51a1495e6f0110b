// The password screens' messages (forgot and set password): ids under "password.", English defaults
// here, Spanish in strings.es.ts. Server messages (OperationOutcome text) are shown as sent.
import type { Messages } from '../../i18n/catalog';

export const passwordStrings = {
  resetPageTitle: { id: 'password.reset.pageTitle', message: 'Reset password · Bloom' },
  resetTitle: { id: 'password.reset.title', message: 'Reset your password' },
  resetSubtitle: { id: 'password.reset.subtitle', message: 'We will email you a link to set a new one.' },
  resetSent: {
    id: 'password.reset.sent',
    message: 'If an account uses that email, a reset link is on its way. Check your email.',
  },
  resetSubmit: { id: 'password.reset.submit', message: 'Reset password' },
  email: { id: 'password.reset.email', message: 'Email' },
  backToSignIn: { id: 'password.backToSignIn', message: 'Back to sign in' },
  setPageTitle: { id: 'password.set.pageTitle', message: 'Set password · Bloom' },
  setTitle: { id: 'password.set.title', message: 'Set a new password' },
  setDone: { id: 'password.set.done', message: 'Your password has been set.' },
  signIn: { id: 'password.set.signIn', message: 'Sign in' },
  setSubmit: { id: 'password.set.submit', message: 'Set password' },
  newPassword: { id: 'password.set.new', message: 'New password' },
  confirmPassword: { id: 'password.set.confirm', message: 'Confirm new password' },
  passwordRequired: { id: 'password.set.required', message: 'Password is required' },
  mismatch: { id: 'password.set.mismatch', message: 'Passwords do not match' },
} as const satisfies Messages;
