// The registration screen's messages: ids under "register.", English defaults here, Spanish in
// strings.es.ts. Server messages (OperationOutcome text) are shown as the server sent them.
import type { Messages } from '../../i18n/catalog';

export const registerStrings = {
  pageTitle: { id: 'register.pageTitle', message: 'Register · Bloom' },
  title: { id: 'register.title', message: 'Register with Bloom' },
  subtitle: { id: 'register.subtitle', message: 'Create your account to follow your pregnancy care.' },
  form: { id: 'register.form', message: 'Register' },
  submit: { id: 'register.submit', message: 'Create account' },
  haveAccount: { id: 'register.haveAccount', message: 'Already have an account?' },
  logIn: { id: 'register.logIn', message: 'Log in' },
  firstName: { id: 'register.firstName', message: 'First name' },
  lastName: { id: 'register.lastName', message: 'Last name' },
  email: { id: 'register.email', message: 'Email' },
  password: { id: 'register.password', message: 'Password' },
  firstNameRequired: { id: 'register.firstName.required', message: 'First name is required' },
  lastNameRequired: { id: 'register.lastName.required', message: 'Last name is required' },
  emailRequired: { id: 'register.email.required', message: 'Email is required' },
  passwordRequired: { id: 'register.password.required', message: 'Password is required' },
  noCode: {
    id: 'register.noCode',
    message: 'Registration did not finish: the server sent no sign-in code',
  },
} as const satisfies Messages;
