// The sign-out notices: ids under "signout.", English defaults here, Spanish in strings.es.ts.
import type { Messages } from '../../i18n/catalog';

export const signoutStrings = {
  signedOut: { id: 'signout.done', message: 'You have signed out.' },
  offline: {
    id: 'signout.offline',
    message: 'You are signed out on this device; the server could not be reached.',
  },
} as const satisfies Messages;
