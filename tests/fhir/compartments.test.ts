import type {
  Communication,
  Condition,
  DiagnosticReport,
  Observation,
  Organization,
  Patient,
} from '@medplum/fhirtypes';
import { getPatientCompartments } from '../../src/fhir';

function compartmentsOf(...args: Parameters<typeof getPatientCompartments>): string[] {
  return getPatientCompartments(...args).map((ref) => ref.reference ?? '');
}

describe('Patient compartments (CompartmentDefinition evaluated with fhirpath; SPEC §3 meta.compartment)', () => {
  test('Observation.subject and performer', () => {
    const observation: Observation = {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Weight' },
      subject: { reference: 'Patient/maria' },
      performer: [{ reference: 'Practitioner/dr-chen' }, { reference: 'Patient/aisha' }],
    };
    expect(compartmentsOf(observation)).toEqual(['Patient/maria', 'Patient/aisha']);
  });

  test('Communication sender and recipient, without duplicates', () => {
    const message: Communication = {
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: 'Patient/maria' },
      sender: { reference: 'Practitioner/dr-chen' },
      recipient: [{ reference: 'Patient/maria' }, { reference: 'Patient/aisha' }],
    };
    expect(compartmentsOf(message)).toEqual(['Patient/maria', 'Patient/aisha']);

    const fromPatient: Communication = {
      resourceType: 'Communication',
      status: 'completed',
      sender: { reference: 'Patient/maria' },
      recipient: [{ reference: 'Practitioner/dr-chen' }],
    };
    expect(compartmentsOf(fromPatient)).toEqual(['Patient/maria']);
  });

  test('DiagnosticReport.subject', () => {
    const report: DiagnosticReport = {
      resourceType: 'DiagnosticReport',
      status: 'final',
      code: { text: 'Complete blood count' },
      subject: { reference: 'Patient/maria' },
      performer: [{ reference: 'Patient/not-a-compartment-param' }],
    };
    expect(compartmentsOf(report)).toEqual(['Patient/maria']);
  });

  test('a Patient is in its own compartment (and its linked patients)', () => {
    const patient: Patient = { resourceType: 'Patient', id: 'maria' };
    expect(compartmentsOf(patient)).toEqual(['Patient/maria']);
    const linked: Patient = {
      resourceType: 'Patient',
      id: 'maria',
      link: [{ other: { reference: 'Patient/old' }, type: 'replaces' }],
    };
    expect(compartmentsOf(linked)).toEqual(['Patient/maria', 'Patient/old']);
  });

  test('"where(resolve() is Patient)" params keep Patient references only', () => {
    const forPatient: Condition = { resourceType: 'Condition', subject: { reference: 'Patient/maria' } };
    expect(compartmentsOf(forPatient)).toEqual(['Patient/maria']);
    const forGroup: Condition = { resourceType: 'Condition', subject: { reference: 'Group/prenatal' } };
    expect(compartmentsOf(forGroup)).toEqual([]);
  });

  test('non-Patient, malformed and display-only references are not compartments', () => {
    const observation: Observation = {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'x' },
      subject: { display: 'Somebody' },
      performer: [
        { reference: 'Patient/' },
        { reference: 'Patient?identifier=123' },
        { reference: 'Device/d1' },
      ],
    };
    expect(compartmentsOf(observation)).toEqual([]);
  });

  test('types outside the compartment have none', () => {
    const organization: Organization = { resourceType: 'Organization', name: 'Bloom Clinic' };
    expect(compartmentsOf(organization)).toEqual([]);
  });

  test('the resource is not modified', () => {
    const observation: Observation = {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'x' },
      subject: { reference: 'Patient/maria' },
    };
    const before = structuredClone(observation);
    getPatientCompartments(observation);
    expect(observation).toEqual(before);
  });
});
