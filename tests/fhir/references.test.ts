import type { Organization, Patient, Practitioner } from '@medplum/fhirtypes';
import {
  createReference,
  getReferenceString,
  isSystemReference,
  OperationOutcomeError,
  parseReference,
  systemDevice,
} from '../../src/fhir';

function thrownMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OperationOutcomeError);
    return (err as OperationOutcomeError).message;
  }
  throw new Error('expected a throw');
}

describe('SPEC §5 references', () => {
  test('parseReference splits Type/id from a Reference or a string', () => {
    expect(parseReference({ reference: 'Patient/123' })).toEqual(['Patient', '123']);
    expect(parseReference('Observation/a-b.c')).toEqual(['Observation', 'a-b.c']);
    expect(parseReference('Patient/1/_history/2')).toEqual(['Patient', '1']);
  });

  test.each([undefined, '', { display: 'No reference' }, { reference: '' }])(
    'Missing reference: %p',
    (ref) => {
      expect(thrownMessage(() => parseReference(ref))).toBe('Missing reference');
    },
  );

  test.each([
    'Patient',
    'Patient/',
    '/123',
    'patient/123',
    'Patient/123/extra',
    'Patient/has space',
    'urn:uuid:x',
  ])('Invalid reference: %p', (ref) => {
    expect(thrownMessage(() => parseReference({ reference: ref }))).toBe('Invalid reference');
  });

  test('the thrown outcome is a 400 invalid issue', () => {
    try {
      parseReference('nope');
    } catch (err) {
      expect((err as OperationOutcomeError).outcome.issue[0].code).toBe('invalid');
    }
    expect.assertions(1);
  });

  test('getReferenceString and createReference', () => {
    const patient: Patient = {
      resourceType: 'Patient',
      id: 'p1',
      name: [{ given: ['Maria'], family: 'Garcia' }],
    };
    expect(getReferenceString(patient)).toBe('Patient/p1');
    expect(createReference(patient)).toEqual({ reference: 'Patient/p1', display: 'Maria Garcia' });
    const org: Organization = { resourceType: 'Organization', id: 'o1', name: 'Bloom Clinic' };
    expect(createReference(org)).toEqual({ reference: 'Organization/o1', display: 'Bloom Clinic' });
    const doc: Practitioner = { resourceType: 'Practitioner', id: 'd1', name: [{ text: 'Dr. Lily Chen' }] };
    expect(createReference(doc).display).toBe('Dr. Lily Chen');
    const unnamed: Patient = { resourceType: 'Patient', id: 'p2' };
    expect(createReference(unnamed)).toEqual({ reference: 'Patient/p2' });
  });

  test('getReferenceString needs an id', () => {
    expect(thrownMessage(() => getReferenceString({ resourceType: 'Patient' }))).toBe('Missing id');
  });
});

describe('SPEC §3 system reference', () => {
  test('systemDevice is a Device with id system', () => {
    expect(systemDevice.resourceType).toBe('Device');
    expect(systemDevice.id).toBe('system');
  });

  test('a reference equal to "system" stands for the system device', () => {
    expect(isSystemReference({ reference: 'system' })).toBe(true);
    expect(isSystemReference('system')).toBe(true);
    expect(isSystemReference(createReference(systemDevice))).toBe(true);
    expect(parseReference('system')).toEqual(['Device', 'system']);
  });

  test('other references are not the system', () => {
    expect(isSystemReference({ reference: 'Device/other' })).toBe(false);
    expect(isSystemReference({ reference: 'Patient/system' })).toBe(false);
    expect(isSystemReference(undefined)).toBe(false);
  });
});
