// The combined policy of a membership (SPEC §6), built as Medplum's server builds it.
import type { AccessPolicy } from '@medplum/fhirtypes';
import { combinePolicies, entriesFor, substituteParameters } from '../../../src/server/access/policy';

const maria = { reference: 'Patient/maria' };

describe('combinePolicies', () => {
  it('SPEC §6 no grant is the legacy everything, plus the readable definitions', () => {
    const policy = combinePolicies([], maria);
    expect(policy.resource.map((e) => e.resourceType)).toEqual([
      '*',
      'SearchParameter',
      'StructureDefinition',
    ]);
    expect(entriesFor(policy, 'Observation', 'delete')).toHaveLength(1);
    expect(entriesFor(policy, 'StructureDefinition', 'update')).toHaveLength(1);
  });

  it('SPEC §6 a `*` entry never covers the project admin types', () => {
    const policy = combinePolicies([], maria);
    for (const type of [
      'Project',
      'ProjectMembership',
      'User',
      'UserSecurityRequest',
      'PasswordChangeRequest',
    ]) {
      expect(entriesFor(policy, type, 'read')).toEqual([]);
    }
  });

  it('SPEC §6 readonly entries allow the read interactions only', () => {
    const policy = combinePolicies(
      [{ policy: { resourceType: 'AccessPolicy', resource: [{ resourceType: 'Slot', readonly: true }] } }],
      maria,
    );
    for (const interaction of ['read', 'vread', 'history', 'search'] as const) {
      expect(entriesFor(policy, 'Slot', interaction)).toHaveLength(1);
    }
    for (const interaction of ['create', 'update', 'delete'] as const) {
      expect(entriesFor(policy, 'Slot', interaction)).toEqual([]);
    }
    expect(entriesFor(policy, 'Observation', 'read')).toEqual([]);
  });

  it('SPEC §6 an explicit interaction list wins over readonly', () => {
    const policy = combinePolicies(
      [
        {
          policy: {
            resourceType: 'AccessPolicy',
            resource: [{ resourceType: 'QuestionnaireResponse', readonly: true, interaction: ['create'] }],
          },
        },
      ],
      maria,
    );
    expect(entriesFor(policy, 'QuestionnaireResponse', 'create')).toHaveLength(1);
    expect(entriesFor(policy, 'QuestionnaireResponse', 'read')).toEqual([]);
  });

  it('SPEC §6 two policies combine: entries of both, the last compartment, every IP rule', () => {
    const first: AccessPolicy = {
      resourceType: 'AccessPolicy',
      id: 'first',
      compartment: { reference: '%patient' },
      resource: [{ resourceType: 'Observation', criteria: 'Observation?subject=%patient' }],
      ipAccessRule: [{ value: '10.0.0.0/8', action: 'allow' }],
    };
    const second: AccessPolicy = {
      resourceType: 'AccessPolicy',
      id: 'second',
      compartment: { reference: 'Organization/%org' },
      resource: [{ resourceType: 'Encounter', criteria: 'Encounter?service-provider=Organization/%org' }],
      ipAccessRule: [{ value: '0.0.0.0/0', action: 'block' }],
    };
    const policy = combinePolicies(
      [{ policy: first }, { policy: second, parameter: [{ name: 'org', valueString: 'north' }] }],
      maria,
    );
    expect(policy.basedOn).toEqual([
      { reference: 'AccessPolicy/first' },
      { reference: 'AccessPolicy/second' },
    ]);
    expect(policy.compartment).toEqual({ reference: 'Organization/north' });
    expect(policy.resource.slice(0, 2)).toEqual([
      { resourceType: 'Observation', criteria: 'Observation?subject=Patient/maria' },
      { resourceType: 'Encounter', criteria: 'Encounter?service-provider=Organization/north' },
    ]);
    expect(policy.ipAccessRule).toHaveLength(2);
  });
});

describe('substituteParameters', () => {
  it('SPEC §6 %profile, %patient (the profile unless given) and %name.id', () => {
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [
        { resourceType: 'Patient', criteria: 'Patient?_id=%patient.id' },
        { resourceType: 'Observation', criteria: 'Observation?performer=%profile' },
      ],
    };
    const chen = { reference: 'Practitioner/chen' };
    expect(substituteParameters(policy, [], chen).resource).toEqual([
      { resourceType: 'Patient', criteria: 'Patient?_id=chen' },
      { resourceType: 'Observation', criteria: 'Observation?performer=Practitioner/chen' },
    ]);
    const given = substituteParameters(policy, [{ name: 'patient', valueReference: maria }], chen);
    expect(given.resource?.[0].criteria).toBe('Patient?_id=maria');
  });

  it('SPEC §6 a longer parameter name is not read as a shorter one followed by text', () => {
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [
        { resourceType: 'Encounter', criteria: 'Encounter?service-provider=%patientOrg&subject=%patient' },
      ],
    };
    const out = substituteParameters(
      policy,
      [{ name: 'patientOrg', valueReference: { reference: 'Organization/north' } }],
      maria,
    );
    expect(out.resource?.[0].criteria).toBe(
      'Encounter?service-provider=Organization/north&subject=Patient/maria',
    );
  });

  it('SPEC §6 a value with quotes or backslashes cannot break out of the policy JSON', () => {
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Observation', criteria: 'Observation?code=%code' }],
    };
    const out = substituteParameters(
      policy,
      [{ name: 'code', valueString: 'a"},{"resourceType":"*' }],
      maria,
    );
    expect(out.resource).toHaveLength(1);
    expect(out.resource?.[0].criteria).toBe('Observation?code=a"},{"resourceType":"*');
  });
});
