// SPEC §6 access control inside the search SQL: a patient finds only her compartment
// (and the types her policy grants project-wide), members only their project; totals, paging,
// includes, chains and _has never reveal what the caller may not read.
import type { AccessPolicy, Observation, Patient, Practitioner, Slot } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import type { RepositoryContext } from '../../../src/server/repo';
import { buildPatientAccessPolicy } from '../../../src/server/seed';
import { databases } from '../support/test-databases';
import { idSet, patientContext, searchUrl, sorted } from './search-support';
import { combinePolicies } from '../../../src/server/access/policy';

const PROJECT = 'acl-project';
const OTHER = 'acl-other';

function memberContext(project: string): RepositoryContext {
  return {
    project,
    author: { reference: 'Practitioner/member' },
    access: {
      superAdmin: false,
      projectAdmin: false,
      profile: { reference: 'Practitioner/member' },
      membership: { reference: 'ProjectMembership/member' },
      policy: combinePolicies([], { reference: 'Practitioner/member' }),
    },
  };
}

describe.each(databases())('SPEC §6 access control in search on %s', (_engine, kind) => {
  let db: Database;
  let system: Repository;
  let maria: Patient;
  let aisha: Patient;
  let chen: Practitioner;
  let mariaObs: Observation;
  let aishaObs: Observation;
  let otherObs: Observation;
  let slot: Slot;
  let asMaria: Repository;
  let asMember: Repository;
  let asOtherMember: Repository;

  beforeAll(async () => {
    db = await kind.open();
    system = new Repository(db, systemContext(PROJECT));
    chen = await system.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ family: 'Chen' }],
    });
    maria = await system.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Garcia', given: ['Maria'] }],
      generalPractitioner: [{ reference: `Practitioner/${chen.id}` }],
    });
    aisha = await system.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'Garcia', given: ['Aisha'] }],
    });
    const observation = (patient: Patient, code: string): Observation => ({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code }] },
      subject: { reference: `Patient/${patient.id}` },
      performer: [{ reference: `Practitioner/${chen.id}` }],
    });
    mariaObs = await system.createResource(observation(maria, '8867-4'));
    aishaObs = await system.createResource(observation(aisha, '8867-4'));
    otherObs = await system.withContext(systemContext(OTHER)).createResource(observation(maria, '8867-4'));
    slot = await system.createResource<Slot>({
      resourceType: 'Slot',
      status: 'free',
      schedule: { reference: 'Schedule/s1' },
      start: '2025-01-01T09:00:00Z',
      end: '2025-01-01T09:30:00Z',
    });
    asMaria = new Repository(db, patientContext(PROJECT, maria.id as string, buildPatientAccessPolicy()));
    asMember = new Repository(db, memberContext(PROJECT));
    asOtherMember = new Repository(db, memberContext(OTHER));
  });

  afterAll(async () => {
    await db.close();
  });

  test('a patient finds only her own compartment, with totals to match', async () => {
    expect(await idSet(asMaria, 'Observation?code=8867-4')).toEqual([mariaObs.id]);
    expect(await idSet(asMaria, 'Patient?name=garcia')).toEqual([maria.id]);
    expect(await idSet(asMaria, `Observation?subject=Patient/${aisha.id}`)).toEqual([]);
    const counted = await searchUrl(asMaria, 'Observation?_total=accurate');
    expect(counted.total).toBe(1);
    expect(counted.hasMore).toBe(false);
  });

  test('a policy entry without compartment (Practitioner, Slot) is searchable project-wide', async () => {
    expect(await idSet(asMaria, 'Practitioner?name=chen')).toEqual([chen.id]);
    expect(await idSet(asMaria, 'Slot?schedule=Schedule/s1&start=ge2025-01-01')).toEqual([slot.id]);
    // Encounter is not in the policy at all: nothing, not an error.
    expect(await idSet(asMaria, 'Encounter?status=finished')).toEqual([]);
  });

  test('a patient policy entry with a compartment keeps even a listed type to her compartment', async () => {
    const narrow: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [
        { resourceType: 'Patient', compartment: { reference: '%patient' } },
        { resourceType: 'Practitioner', compartment: { reference: '%patient' } },
      ],
    };
    const repo = new Repository(db, patientContext(PROJECT, maria.id as string, narrow));
    expect(await idSet(repo, 'Practitioner?name=chen')).toEqual([]);
    expect(await idSet(repo, 'Patient?name=garcia')).toEqual([maria.id]);
  });

  test('members find only their project', async () => {
    expect(await idSet(asMember, 'Observation?code=8867-4')).toEqual(sorted([mariaObs.id, aishaObs.id]));
    expect(await idSet(asOtherMember, 'Observation?code=8867-4')).toEqual([otherObs.id]);
    expect(await idSet(asOtherMember, 'Patient?name=garcia')).toEqual([]);
    expect(await idSet(system, 'Observation?code=8867-4')).toEqual(
      sorted([mariaObs.id, aishaObs.id, otherObs.id]),
    );
  });

  test('_include and _revinclude add only what the caller may read', async () => {
    const own = await searchUrl(
      asMaria,
      'Observation?_include=Observation:performer&_include=Observation:subject',
    );
    expect(sorted(own.included.map((r) => `${r.resourceType}/${r.id}`))).toEqual(
      sorted([`Practitioner/${chen.id}`, `Patient/${maria.id}`]),
    );
    const rev = await searchUrl(asMaria, `Practitioner?_id=${chen.id}&_revinclude=Observation:performer`);
    expect(rev.included.map((r) => r.id)).toEqual([mariaObs.id]);
    const member = await searchUrl(asOtherMember, `Observation?_include=Observation:subject`);
    expect(member.resources.map((r) => r.id)).toEqual([otherObs.id]);
    expect(member.included).toEqual([]); // Maria lives in another project
  });

  test('chains and _has do not match through resources the caller may not read', async () => {
    // Aisha's Observation points at Aisha: Maria cannot use it to learn anything.
    expect(await idSet(asMaria, 'Patient?_has:Observation:subject:code=8867-4')).toEqual([maria.id]);
    expect(await idSet(asOtherMember, 'Observation?subject:Patient.name=garcia')).toEqual([]);
    expect(await idSet(asMember, 'Observation?subject:Patient.name=aisha')).toEqual([aishaObs.id]);
    expect(await idSet(asOtherMember, `Patient?_has:Observation:subject:_id=${otherObs.id}`)).toEqual([]);
  });
});
