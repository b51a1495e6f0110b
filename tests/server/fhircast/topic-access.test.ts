// The FHIRcast topic rules on their own (SPEC §6, §7): which profile a reserved name names, what a
// patient's AccessPolicy must say for each use, and who may use or keep hearing a topic.
import type { AccessPolicyResource } from '@medplum/fhirtypes';
import type { AccessContext } from '../../../src/server/access/context';
import { combinePolicies } from '../../../src/server/access/policy';
import {
  mayHear,
  policyRefusal,
  reservedOwner,
  topicRefusal,
} from '../../../src/server/fhircast/topic-access';
import type { TopicCaller } from '../../../src/server/fhircast/topic-access';

function access(profile: string, resource: AccessPolicyResource[]): AccessContext {
  const reference = { reference: profile };
  return {
    superAdmin: false,
    projectAdmin: false,
    profile: reference,
    membership: { reference: 'ProjectMembership/m1' },
    patientCompartment: profile.startsWith('Patient/') ? profile : undefined,
    policy: combinePolicies([{ policy: { resourceType: 'AccessPolicy', resource } }], reference),
  };
}

const caller = (profile: string): TopicCaller => ({
  project: 'p1',
  profile,
  access: access(profile, [{ resourceType: '*' }]),
});

test('a bloom-{type}-{id} topic names its owner; other names name nobody', () => {
  expect(reservedOwner('bloom-Practitioner-123')).toBe('Practitioner/123');
  expect(reservedOwner('bloom-Patient-a1b2-c3.d4')).toBe('Patient/a1b2-c3.d4');
  for (const topic of [
    'bloom-',
    'bloom-practitioner-1',
    'reading-room',
    'bloom-Practitioner-',
    'x-bloom-Patient-1',
  ]) {
    expect({ topic, owner: reservedOwner(topic) }).toEqual({ topic, owner: undefined });
  }
});

test("a patient needs an entry naming FHIRcast: read for reading, create for publishing; '*' is not one", () => {
  const patient = (resource: AccessPolicyResource[]) => access('Patient/p1', resource);
  const cases: [AccessPolicyResource[], string | undefined, string | undefined][] = [
    [[{ resourceType: '*' }], 'read', 'create'],
    [[{ resourceType: 'Patient' }], 'read', 'create'],
    [[{ resourceType: 'FHIRcast' }], undefined, undefined],
    [[{ resourceType: 'FHIRcast', readonly: true }], undefined, 'create'],
    [[{ resourceType: 'FHIRcast', interaction: ['read'] }], undefined, 'create'],
    [[{ resourceType: 'FHIRcast', interaction: ['create'] }], 'read', undefined],
    [[{ resourceType: 'FHIRcast', interaction: ['search', 'update'] }], 'read', 'create'],
  ];
  for (const [resource, read, publish] of cases) {
    const policy = patient(resource);
    expect({
      resource,
      read: policyRefusal(policy, 'read'),
      publish: policyRefusal(policy, 'publish'),
    }).toEqual({
      resource,
      read: read && `Your access policy does not grant FHIRcast ${read}`,
      publish: publish && `Your access policy does not grant FHIRcast ${publish}`,
    });
  }
  // A practitioner (and the server's own work) is not held to a grant.
  expect(policyRefusal(access('Practitioner/d1', [{ resourceType: 'Patient' }]), 'publish')).toBeUndefined();
  expect(policyRefusal(undefined, 'publish')).toBeUndefined();
});

test('the owner, whom he shares with, and nobody else; a free topic is anybody’s to claim', () => {
  const ownership = {
    owner: 'Practitioner/a',
    owner_membership: 'ProjectMembership/m1',
    shared_with: ['Practitioner/b'],
  };
  expect(topicRefusal('t', ownership, caller('Practitioner/a'))).toBeUndefined();
  expect(topicRefusal('t', ownership, caller('Practitioner/b'))).toBeUndefined();
  expect(topicRefusal('t', ownership, caller('Practitioner/c'))).toBe(
    'The FHIRcast topic t belongs to another user and is not shared with you',
  );
  expect(topicRefusal('t', undefined, caller('Practitioner/c'))).toBeUndefined();
  expect(topicRefusal('bloom-Practitioner-a', undefined, caller('Practitioner/a'))).toBeUndefined();
  expect(topicRefusal('bloom-Practitioner-a', undefined, caller('Practitioner/c'))).toBeDefined();
  // The server's own work reaches every topic of its project.
  expect(topicRefusal('t', ownership, { project: 'p1', profile: 'Device/system' })).toBeUndefined();

  expect(mayHear(ownership, 'Practitioner/a')).toBe(true);
  expect(mayHear(ownership, 'Practitioner/b')).toBe(true);
  expect(mayHear(ownership, 'Practitioner/c')).toBe(false);
});
