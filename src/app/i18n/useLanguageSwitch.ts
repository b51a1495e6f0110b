// Switching the language: at once on screen and on this device, then in her record (a patient may
// update her own Patient) so every device she signs in on starts in it.
import type { Patient } from '@medplum/fhirtypes';
import { useCallback } from 'react';
import { useLoadedBloomClient, useSession } from '../session/BloomClientContext';
import { activateLocale, rememberLocale } from './i18n';
import type { Locale } from './locale';
import { withPreferredLocale } from './patientLanguage';

export function useLanguageSwitch(): (locale: Locale) => Promise<void> {
  const client = useLoadedBloomClient();
  const { profile } = useSession();
  return useCallback(
    async (locale: Locale) => {
      rememberLocale(locale);
      await activateLocale(locale);
      if (!client || profile?.resourceType !== 'Patient' || !profile.id) return;
      const stored = await client.readResource<Patient>('Patient', profile.id, { cache: 'no-cache' });
      await client.updateResource(withPreferredLocale(stored, locale));
      await client.reloadProfile();
    },
    [client, profile],
  );
}
