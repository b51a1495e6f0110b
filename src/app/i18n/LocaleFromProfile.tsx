// Signed in, the patient's saved language (Patient.communication) wins over the device's choice.
import { useEffect } from 'react';
import { useSession } from '../session/BloomClientContext';
import { activateLocale, rememberLocale } from './i18n';
import { preferredLocale } from './patientLanguage';

export function LocaleFromProfile() {
  const { profile } = useSession();
  const locale = preferredLocale(profile);
  useEffect(() => {
    if (!locale) return;
    rememberLocale(locale);
    void activateLocale(locale);
  }, [locale]);
  return null;
}
