// Every Spanish catalog in one chunk, loaded only when Spanish is active (i18n.ts). Add a feature's
// strings.es.ts here when it is translated.
import shell from '../components/strings.es';
import plainWords from '../components/plainWords/strings.es';
import home from '../features/home/strings.es';
import record from '../features/health-record/strings.es';
import messages from '../features/messages/strings.es';
import getCare from '../features/get-care/strings.es';
import notices from '../system-notifications/strings.es';
import landing from '../features/landing/strings.es';
import signin from '../features/signin/strings.es';
import register from '../features/register/strings.es';
import password from '../features/password/strings.es';
import signout from '../features/signout/strings.es';
import account from '../features/account/strings.es';
import forms from '../features/forms/strings.es';
import journey from '../features/journey/strings.es';
import kickCount from '../features/kick-count/strings.es';
import screening from '../features/screening/strings.es';

export const spanishMessages: Record<string, string> = {
  ...shell,
  ...plainWords,
  ...home,
  ...record,
  ...messages,
  ...getCare,
  ...notices,
  ...landing,
  ...signin,
  ...register,
  ...password,
  ...signout,
  ...account,
  ...forms,
  ...journey,
  ...kickCount,
  ...screening,
};
