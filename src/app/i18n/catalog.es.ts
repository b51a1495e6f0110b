// Every Spanish catalog in one chunk, loaded only when Spanish is active (i18n.ts). Add a feature's
// strings.es.ts here when it is translated.
import shell from '../components/strings.es';
import home from '../features/home/strings.es';
import forms from '../features/forms/strings.es';
import journey from '../features/journey/strings.es';
import kickCount from '../features/kick-count/strings.es';
import screening from '../features/screening/strings.es';

export const spanishMessages: Record<string, string> = {
  ...shell,
  ...home,
  ...forms,
  ...journey,
  ...screening,
  ...kickCount,
};
