// The clinic itself: the "Bloom Clinic" project, its organization, laboratory and location, the
// general practitioner Dr. Lily Chen (with a photo) and the project admin's profile.
import type { Address, Identifier, Project } from '@medplum/fhirtypes';
import { DEMO_PROJECT_NAME, getDemoAccount } from './accounts';
import type { ClinicRefs, DemoContext } from './demo-context';
import { buildPortraitAttachment } from './portrait';

export const CLINIC_ADDRESS: Address = {
  use: 'work',
  line: ['200 Blossom Avenue'],
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  country: 'US',
};

export const CLINIC_PHONE = '+1-217-555-0142';

/** Marks the demo's Project, so the seed can tell whether the clinic already exists. */
export const DEMO_PROJECT_IDENTIFIER: Readonly<Required<Pick<Identifier, 'system' | 'value'>>> = {
  system: 'https://bloom.example/fhir/demo-project',
  value: 'bloom-clinic',
};

/** The Project resource (a platform type, SPEC §3) the demo data belongs to. */
export function buildDemoProject(): Project {
  return {
    resourceType: 'Project',
    identifier: [{ ...DEMO_PROJECT_IDENTIFIER }],
    name: DEMO_PROJECT_NAME,
    description: 'Demo pregnancy-care clinic seeded on first start.',
    // Medplum's components (useSubscription: ThreadChat, notification counts) subscribe for live
    // updates only in a project with this feature, as Medplum's server requires it.
    features: ['websocket-subscriptions'],
  };
}

export function addClinic({ tx, calendar }: DemoContext): ClinicRefs {
  const clinic = tx.add(
    'organization-bloom-clinic',
    {
      resourceType: 'Organization',
      active: true,
      name: DEMO_PROJECT_NAME,
      type: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/organization-type',
              code: 'prov',
              display: 'Healthcare Provider',
            },
          ],
        },
      ],
      telecom: [
        { system: 'phone', value: CLINIC_PHONE, use: 'work' },
        { system: 'email', value: 'care@bloom.example', use: 'work' },
      ],
      address: [CLINIC_ADDRESS],
    },
    DEMO_PROJECT_NAME,
  );

  const laboratory = tx.add(
    'organization-bloom-lab',
    {
      resourceType: 'Organization',
      active: true,
      name: 'Bloom Clinic Laboratory',
      type: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/organization-type',
              code: 'prov',
              display: 'Healthcare Provider',
            },
          ],
        },
      ],
      partOf: clinic,
      telecom: [{ system: 'phone', value: '+1-217-555-0143', use: 'work' }],
      address: [CLINIC_ADDRESS],
    },
    'Bloom Clinic Laboratory',
  );

  const location = tx.add(
    'location-bloom-clinic',
    {
      resourceType: 'Location',
      status: 'active',
      name: 'Bloom Clinic, Blossom Avenue',
      description: 'Prenatal care, laboratory and vaccinations',
      telecom: [{ system: 'phone', value: CLINIC_PHONE }],
      address: CLINIC_ADDRESS,
      managingOrganization: clinic,
    },
    'Bloom Clinic, Blossom Avenue',
  );

  const chen = getDemoAccount('dr-chen');
  const drChen = tx.add(
    'practitioner-dr-chen',
    {
      resourceType: 'Practitioner',
      active: true,
      name: [
        {
          use: 'official',
          prefix: ['Dr.'],
          given: [chen.givenName],
          family: chen.familyName,
          suffix: ['MD'],
        },
      ],
      gender: 'female',
      telecom: [
        { system: 'email', value: chen.email, use: 'work' },
        { system: 'phone', value: CLINIC_PHONE, use: 'work' },
      ],
      address: [CLINIC_ADDRESS],
      photo: [buildPortraitAttachment(calendar.at(-365, 12))],
      qualification: [
        {
          code: {
            coding: [
              {
                system: 'http://terminology.hl7.org/CodeSystem/v2-0360',
                code: 'MD',
                display: 'Doctor of Medicine',
              },
            ],
            text: 'General practitioner, prenatal care',
          },
          issuer: { display: 'Illinois Department of Financial and Professional Regulation' },
        },
      ],
    },
    'Dr. Lily Chen',
  );

  const adminAccount = getDemoAccount('admin');
  const admin = tx.add(
    'practitioner-admin',
    {
      resourceType: 'Practitioner',
      active: true,
      name: [{ use: 'official', given: [adminAccount.givenName], family: adminAccount.familyName }],
      telecom: [{ system: 'email', value: adminAccount.email, use: 'work' }],
    },
    `${adminAccount.givenName} ${adminAccount.familyName}`,
  );

  return { clinic, laboratory, location, drChen, admin };
}
