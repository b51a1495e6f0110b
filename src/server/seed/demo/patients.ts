// The two patients in pregnancy care, both with Dr. Chen as general practitioner. Maria Garcia is
// the main demo patient; Aisha Khan has a smaller record so access-control tests have a second
// patient whose data Maria must not see.
import type { Patient } from '@medplum/fhirtypes';
import { getDemoAccount } from './accounts';
import type { ClinicRefs, DemoContext, PatientRefs } from './demo-context';

/** Gestational age (in days) of each pregnancy on the seeding day. */
export const GESTATION_TODAY = {
  maria: 35 * 7 + 4,
  aisha: 22 * 7 + 2,
} as const;

/** "35w 4d": the gestational age `daysFromToday` days after the seeding day. */
export function gestationalAge(patient: keyof typeof GESTATION_TODAY, daysFromToday: number): string {
  const days = GESTATION_TODAY[patient] + daysFromToday;
  return `${Math.floor(days / 7)}w ${days % 7}d`;
}

export function addPatients({ tx, calendar }: DemoContext, clinic: ClinicRefs): PatientRefs {
  const mariaAccount = getDemoAccount('maria');
  const maria: Patient = {
    resourceType: 'Patient',
    active: true,
    name: [{ use: 'official', given: [mariaAccount.givenName], family: mariaAccount.familyName }],
    gender: 'female',
    birthDate: calendar.birthDate(31, 3, 14),
    telecom: [
      { system: 'email', value: mariaAccount.email, use: 'home' },
      { system: 'phone', value: '+1-217-555-0187', use: 'mobile' },
    ],
    address: [
      {
        use: 'home',
        line: ['1450 Maple Street', 'Apt 3B'],
        city: 'Springfield',
        state: 'IL',
        postalCode: '62704',
        country: 'US',
      },
    ],
    communication: [
      {
        language: { coding: [{ system: 'urn:ietf:bcp:47', code: 'en-US' }], text: 'English' },
        preferred: true,
      },
    ],
    generalPractitioner: [clinic.drChen],
    managingOrganization: clinic.clinic,
  };

  const aishaAccount = getDemoAccount('aisha');
  const aisha: Patient = {
    resourceType: 'Patient',
    active: true,
    name: [{ use: 'official', given: [aishaAccount.givenName], family: aishaAccount.familyName }],
    gender: 'female',
    birthDate: calendar.birthDate(27, 8, 2),
    telecom: [
      { system: 'email', value: aishaAccount.email, use: 'home' },
      { system: 'phone', value: '+1-217-555-0164', use: 'mobile' },
    ],
    address: [
      {
        use: 'home',
        line: ['88 Orchard Lane'],
        city: 'Springfield',
        state: 'IL',
        postalCode: '62702',
        country: 'US',
      },
    ],
    generalPractitioner: [clinic.drChen],
    managingOrganization: clinic.clinic,
  };

  return {
    maria: tx.add('patient-maria', maria, `${mariaAccount.givenName} ${mariaAccount.familyName}`),
    aisha: tx.add('patient-aisha', aisha, `${aishaAccount.givenName} ${aishaAccount.familyName}`),
  };
}
