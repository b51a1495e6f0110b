// Every Spanish catalog in one chunk, loaded only when Spanish is active (i18n.ts). Add a feature's
// strings.es.ts here when it is translated.
import shell from '../components/strings.es';
import home from '../features/home/strings.es';
import landing from '../features/landing/strings.es';
import signin from '../features/signin/strings.es';
import register from '../features/register/strings.es';
import password from '../features/password/strings.es';
import signout from '../features/signout/strings.es';
import account from '../features/account/strings.es';

export const spanishMessages: Record<string, string> = {
  ...shell,
  ...home,
  ...landing,
  ...signin,
  ...register,
  ...password,
  ...signout,
  ...account,
};
