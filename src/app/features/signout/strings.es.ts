// The sign-out notices in Spanish (neutral Latin-American, "usted").
import type { Translations } from '../../i18n/catalog';
import type { signoutStrings } from './strings';

export default {
  'signout.done': 'Cerró sesión.',
  'signout.offline': 'Cerró sesión en este dispositivo; no se pudo contactar al servidor.',
} satisfies Translations<typeof signoutStrings>;
