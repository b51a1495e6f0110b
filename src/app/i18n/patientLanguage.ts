// The patient's language in her record: Patient.communication, a BCP-47 code (urn:ietf:bcp:47) marked
// preferred. Other languages she lists stay, no longer preferred.
import type { Patient, PatientCommunication } from '@medplum/fhirtypes';
import type { ProfileResource } from '../../client';
import { BCP47_SYSTEM, supportedLocale, type Locale } from './locale';

/** The app language her record prefers, when it names one the app speaks. */
export function preferredLocale(profile: ProfileResource | undefined): Locale | undefined {
  if (profile?.resourceType !== 'Patient') return undefined;
  const communication = profile.communication ?? [];
  const preferred = communication.find((entry) => entry.preferred) ?? communication[0];
  const coding = preferred?.language?.coding?.find((c) => c.system === BCP47_SYSTEM && c.code);
  return supportedLocale(coding?.code);
}

/** Her Patient with the given language first and preferred. */
export function withPreferredLocale(patient: Patient, locale: Locale): Patient {
  const others = (patient.communication ?? [])
    .filter(
      (entry) =>
        !entry.language?.coding?.some((c) => c.system === BCP47_SYSTEM && supportedLocale(c.code) === locale),
    )
    .map((entry): PatientCommunication => ({ ...entry, preferred: false }));
  const chosen: PatientCommunication = {
    language: {
      coding: [{ system: BCP47_SYSTEM, code: locale, display: locale === 'es' ? 'Spanish' : 'English' }],
    },
    preferred: true,
  };
  return { ...patient, communication: [chosen, ...others] };
}
