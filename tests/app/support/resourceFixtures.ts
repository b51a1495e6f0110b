// Fixtures of the generic resource page tests: a small Patient StructureDefinition as the
// schema load's GraphQL answer (SPEC §7), a stored practitioner login, and a demo Patient.
import type { ElementDefinition, Patient, Practitioner, StructureDefinition } from '@medplum/fhirtypes';
import { fakeAccessToken, type FakeApi } from './fakeApi';

function element(path: string, min: number, max: string, ...types: string[]): ElementDefinition {
  return { id: path, path, min, max, type: types.map((code) => ({ code })) };
}

export const GENDER_VALUE_SET = 'http://hl7.org/fhir/ValueSet/administrative-gender|4.0.1';

export const patientDefinition: StructureDefinition = {
  resourceType: 'StructureDefinition',
  id: 'Patient',
  url: 'http://hl7.org/fhir/StructureDefinition/Patient',
  name: 'Patient',
  status: 'active',
  kind: 'resource',
  abstract: false,
  type: 'Patient',
  snapshot: {
    element: [
      { id: 'Patient', path: 'Patient', min: 0, max: '*' },
      element('Patient.id', 0, '1', 'id'),
      element('Patient.meta', 0, '1', 'Meta'),
      element('Patient.active', 0, '1', 'boolean'),
      element('Patient.name', 0, '*', 'HumanName'),
      {
        ...element('Patient.gender', 0, '1', 'code'),
        binding: { strength: 'required', valueSet: GENDER_VALUE_SET },
      },
      element('Patient.birthDate', 0, '1', 'date'),
      element('Patient.deceased[x]', 0, '1', 'boolean', 'dateTime'),
      element('Patient.address', 0, '*', 'Address'),
      element('Patient.contact', 0, '*', 'BackboneElement'),
      element('Patient.contact.id', 0, '1', 'string'),
      element('Patient.contact.relationship', 0, '*', 'CodeableConcept'),
      element('Patient.contact.name', 0, '1', 'HumanName'),
      element('Patient.contact.period', 0, '1', 'Period'),
      element('Patient.generalPractitioner', 0, '*', 'Reference'),
      element('Patient.managingOrganization', 0, '1', 'Reference'),
    ],
  },
};

export const drChen: Practitioner = {
  resourceType: 'Practitioner',
  id: 'chen-1',
  name: [{ given: ['Lily'], family: 'Chen', prefix: ['Dr.'] }],
};

export const rosa: Patient = {
  resourceType: 'Patient',
  id: 'rosa-1',
  meta: { versionId: 'v2', lastUpdated: '2026-03-02T10:00:00Z' },
  active: true,
  name: [{ given: ['Rosa'], family: 'Delgado' }],
  gender: 'female',
  birthDate: '1990-03-14',
  deceasedBoolean: false,
  address: [{ line: ['1 Elm St'], city: 'Springfield', state: 'IL', postalCode: '62704' }],
  contact: [
    {
      relationship: [{ text: 'Partner' }],
      name: { given: ['Luis'], family: 'Delgado' },
      period: { start: '2020-01-01' },
    },
  ],
  generalPractitioner: [{ reference: 'Practitioner/chen-1', display: 'Dr. Lily Chen' }],
  managingOrganization: { reference: '#clinic', display: 'Contained clinic' },
};

/**
 * The schema load's answer: the Patient definition (no search parameters needed here). Both typed
 * operations (StructureDefinitionList, SearchParameterList) get this body and read their own list.
 */
export function answerSchema(api: FakeApi, definition: StructureDefinition | null = patientDefinition): void {
  api.always('POST fhir/R4/$graphql', 200, {
    data: { StructureDefinitionList: definition ? [definition] : [], SearchParameterList: [] },
  });
}

/** The ValueSet/$expand answer listing the gender codes (SPEC §7). */
export function answerGenderCodes(api: FakeApi): void {
  api.always(`GET fhir/R4/ValueSet/$expand?url=${encodeURIComponent(GENDER_VALUE_SET)}&count=51`, 200, {
    resourceType: 'ValueSet',
    status: 'active',
    expansion: {
      timestamp: '2026-03-01T00:00:00Z',
      contains: ['female', 'male', 'other', 'unknown'].map((code) => ({
        system: 'http://hl7.org/fhir/administrative-gender',
        code,
        display: code.charAt(0).toUpperCase() + code.slice(1),
      })),
    },
  });
}

/** A stored login of `profile` with its auth/me answer, as an earlier page load leaves them. */
export function storeLoginOf(api: FakeApi, profile: Patient | Practitioner): void {
  const reference = `${profile.resourceType}/${profile.id}`;
  const login = {
    accessToken: fakeAccessToken(reference),
    refreshToken: 'refresh-1',
    profile: { reference },
    project: { reference: 'Project/clinic' },
  };
  localStorage.setItem('@bloom/activeLogin', JSON.stringify(login));
  localStorage.setItem('@bloom/logins', JSON.stringify([login]));
  api.always('GET auth/me', 200, {
    profile,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: { resourceType: 'ProjectMembership', id: 'm1', profile: { reference } },
  });
}
