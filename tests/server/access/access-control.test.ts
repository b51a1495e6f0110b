// Access control in the Repository, on every path (SPEC §6): a matrix of callers built as Repository contexts
// — patient A (Maria), patient B (Aisha), a practitioner, a project admin, another project's admin, a super
// admin and the server itself — against read, vread, history, list, create, update, patch, delete, batch and
// transaction. Another project's or another patient's resource answers 404 'Not found' exactly as a missing
// one would; refused writes the caller knowingly asked for answer 403.
import type {
  AccessPolicy,
  Bundle,
  ClientApplication,
  Communication,
  Encounter,
  JsonWebKey,
  Login,
  Observation,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  Resource,
  User,
} from '@medplum/fhirtypes';
import { OperationOutcomeError, getStatus, operationOutcomeToString } from '../../../src/fhir';
import type { Database } from '../../../src/server/db';
import { processBatch } from '../../../src/server/fhir/batch';
import { Repository, systemContext } from '../../../src/server/repo';
import type { AccessContext, RepositoryContext } from '../../../src/server/repo';
import { databases } from '../support/test-databases';
import { combinePolicies } from '../../../src/server/access/policy';

const FHIR_BASE = 'http://localhost/fhir/R4/';
const PROJECT_A = '0a0a0a0a-0000-4000-8000-00000000000a';
const PROJECT_B = '0b0b0b0b-0000-4000-8000-00000000000b';
const PROJECT_SUPER = '05050505-0000-4000-8000-000000000005';

/** Markers written into resources some callers must never see: no response may contain them. */
const AISHA_SECRET = 'aisha-private-glucose-7781';
const OTHER_PROJECT_SECRET = 'other-clinic-private-bp-5523';
const PASSWORD_HASH = '$scrypt$do-not-leak$0123456789abcdef';

type Who = 'maria' | 'aisha' | 'practitioner' | 'admin' | 'otherAdmin' | 'superAdmin' | 'system';

interface Outcome {
  status: number;
  message?: string;
  value?: unknown;
}

/** 200 with the value, or the refusal's HTTP status and message (anything else fails the test). */
async function outcomeOf(promise: Promise<unknown>): Promise<Outcome> {
  try {
    return { status: 200, value: await promise };
  } catch (err) {
    if (err instanceof OperationOutcomeError) {
      return { status: getStatus(err.outcome), message: operationOutcomeToString(err.outcome) };
    }
    throw err;
  }
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  return (await outcomeOf(promise)).status;
}

const READ = ['read', 'vread', 'history', 'search'] as const;

function patientPolicy(extra: AccessPolicy['resource'] = []): AccessPolicy {
  // The rights a patient had before they were data (SPEC §6), as an AccessPolicy: her own Patient
  // read and updated, her Observations and Communications read and created, never deleted;
  // practitioners read project-wide. Encounter is not listed.
  return {
    resourceType: 'AccessPolicy',
    name: 'Patient',
    compartment: { reference: '%patient' },
    resource: [
      { resourceType: 'Patient', compartment: { reference: '%patient' }, interaction: [...READ, 'update'] },
      {
        resourceType: 'Observation',
        compartment: { reference: '%patient' },
        interaction: [...READ, 'create'],
      },
      {
        resourceType: 'Communication',
        compartment: { reference: '%patient' },
        interaction: [...READ, 'create'],
      },
      { resourceType: 'Practitioner', readonly: true },
      ...extra,
    ],
  };
}

describe.each(databases())('SPEC §6 access control in the Repository on %s', (_engine, kind) => {
  let db: Database;
  let system: Repository;
  const repos = {} as Record<Who, Repository>;
  const contexts = {} as Record<Who, RepositoryContext>;

  // Project A (Bloom Clinic)
  let maria: Patient;
  let aisha: Patient;
  let chen: Practitioner;
  let mariaObs: Observation;
  let aishaObs: Observation;
  let mariaEncounter: Encounter;
  let aishaEncounter: Encounter;
  let mariaUser: User;
  let mariaLogin: Login;
  let membership: ProjectMembership;
  let client: ClientApplication;
  let policy: AccessPolicy;
  let jwk: JsonWebKey;
  let projectA: Project;
  // Project B (another clinic)
  let projectB: Project;
  let otherPatient: Patient;
  let otherObs: Observation;
  let otherDeletedObs: Observation;

  function access(fields: Partial<AccessContext> & Pick<AccessContext, 'profile'>): AccessContext {
    return {
      superAdmin: false,
      projectAdmin: false,
      membership: { reference: 'ProjectMembership/unused' },
      ...fields,
      policy:
        fields.policy ??
        combinePolicies(fields.accessPolicy ? [{ policy: fields.accessPolicy }] : [], fields.profile),
    };
  }

  function context(project: string, fields: Partial<AccessContext> & Pick<AccessContext, 'profile'>) {
    return { project, author: fields.profile, access: access(fields) };
  }

  const observationFor = (patient: Patient, text: string): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { text },
    subject: { reference: `Patient/${patient.id}` },
  });

  beforeAll(async () => {
    db = await kind.open();
    system = new Repository(db, systemContext(PROJECT_A));
    const systemB = system.withContext(systemContext(PROJECT_B));
    projectA = await system.createResource<Project>(
      { resourceType: 'Project', name: 'Bloom Clinic' },
      { assignedId: PROJECT_A },
    );
    projectB = await systemB.createResource<Project>(
      { resourceType: 'Project', name: 'Other Clinic' },
      { assignedId: PROJECT_B },
    );
    await system
      .withContext(systemContext(PROJECT_SUPER))
      .createResource<Project>(
        { resourceType: 'Project', name: 'Super', superAdmin: true },
        { assignedId: PROJECT_SUPER },
      );
    maria = await system.createResource<Patient>({ resourceType: 'Patient', name: [{ given: ['Maria'] }] });
    aisha = await system.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ given: ['Aisha'] }],
      extension: [{ url: 'http://example.org/note', valueString: AISHA_SECRET }],
    });
    chen = await system.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ family: 'Chen' }],
    });
    mariaObs = await system.createResource(observationFor(maria, 'Maria weight'));
    aishaObs = await system.createResource(observationFor(aisha, AISHA_SECRET));
    mariaEncounter = await system.createResource<Encounter>({
      resourceType: 'Encounter',
      status: 'finished',
      class: { code: 'AMB' },
      subject: { reference: `Patient/${maria.id}` },
    });
    aishaEncounter = await system.createResource<Encounter>({
      resourceType: 'Encounter',
      status: 'finished',
      class: { code: 'AMB' },
      subject: { reference: `Patient/${aisha.id}` },
    });
    mariaUser = await system.createResource<User>({
      resourceType: 'User',
      email: 'maria@example.com',
      firstName: 'Maria',
      lastName: 'Garcia',
      passwordHash: PASSWORD_HASH,
    });
    mariaLogin = await system.createResource<Login>({
      resourceType: 'Login',
      user: { reference: `User/${mariaUser.id}` },
      authMethod: 'password',
      authTime: new Date().toISOString(),
    });
    policy = await system.createResource(patientPolicy());
    membership = await system.createResource<ProjectMembership>({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${PROJECT_A}` },
      user: { reference: `User/${mariaUser.id}` },
      profile: { reference: `Patient/${maria.id}` },
      accessPolicy: { reference: `AccessPolicy/${policy.id}` },
    });
    client = await system.createResource<ClientApplication>({
      resourceType: 'ClientApplication',
      name: 'Bloom app',
      secret: 'client-secret-for-admins',
    });
    jwk = await system.createResource<JsonWebKey>({
      resourceType: 'JsonWebKey',
      active: true,
      alg: 'ES256',
      kty: 'EC',
    });
    otherPatient = await systemB.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ given: ['Other'] }],
    });
    otherObs = await systemB.createResource(observationFor(otherPatient, OTHER_PROJECT_SECRET));
    otherDeletedObs = await systemB.createResource(observationFor(otherPatient, OTHER_PROJECT_SECRET));
    await systemB.deleteResource('Observation', otherDeletedObs.id!);

    contexts.maria = context(PROJECT_A, {
      profile: { reference: `Patient/${maria.id}` },
      patientCompartment: `Patient/${maria.id}`,
      accessPolicy: policy,
    });
    // Aisha's policy also lets her read the Encounters of her compartment.
    const aishaPolicy = await system.createResource(
      patientPolicy([{ resourceType: 'Encounter', compartment: { reference: '%patient' }, readonly: true }]),
    );
    contexts.aisha = context(PROJECT_A, {
      profile: { reference: `Patient/${aisha.id}` },
      patientCompartment: `Patient/${aisha.id}`,
      accessPolicy: aishaPolicy,
    });
    contexts.practitioner = context(PROJECT_A, { profile: { reference: `Practitioner/${chen.id}` } });
    contexts.admin = context(PROJECT_A, { profile: { reference: 'Practitioner/admin' }, projectAdmin: true });
    contexts.otherAdmin = context(PROJECT_B, {
      profile: { reference: 'Practitioner/other' },
      projectAdmin: true,
    });
    contexts.superAdmin = context(PROJECT_SUPER, {
      profile: { reference: 'Practitioner/root' },
      superAdmin: true,
    });
    contexts.system = systemContext(PROJECT_A);
    for (const who of Object.keys(contexts) as Who[]) {
      repos[who] = new Repository(db, contexts[who]);
    }
  });

  afterAll(async () => {
    await db.close();
  });

  /** The fixture a case names, resolved once beforeAll has run. */
  const fixtures = (): Record<string, Resource> => ({
    maria,
    aisha,
    chen,
    mariaObs,
    aishaObs,
    mariaEncounter,
    aishaEncounter,
    mariaUser,
    mariaLogin,
    membership,
    client,
    policy,
    jwk,
    projectA,
    projectB,
    otherPatient,
    otherObs,
  });

  // [caller, fixture, expected status]
  const readMatrix: [Who, string, number][] = [
    ['maria', 'maria', 200],
    ['maria', 'mariaObs', 200],
    ['maria', 'aisha', 404],
    ['maria', 'aishaObs', 404],
    ['maria', 'otherObs', 404],
    ['maria', 'otherPatient', 404],
    // Her policy's Practitioner entry has no compartment: project-wide read.
    ['maria', 'chen', 200],
    ['maria', 'mariaEncounter', 404], // in her compartment, but her AccessPolicy does not list Encounter
    ['maria', 'mariaUser', 404],
    ['maria', 'mariaLogin', 404],
    ['maria', 'membership', 404],
    ['maria', 'policy', 404],
    ['maria', 'projectA', 404],
    ['maria', 'client', 404],
    ['aisha', 'aisha', 200],
    ['aisha', 'aishaObs', 200],
    ['aisha', 'aishaEncounter', 200], // no AccessPolicy: her compartment is enough
    ['aisha', 'mariaEncounter', 404],
    ['aisha', 'mariaObs', 404],
    ['aisha', 'maria', 404],
    ['practitioner', 'maria', 200],
    ['practitioner', 'aishaObs', 200],
    ['practitioner', 'chen', 200],
    ['practitioner', 'projectA', 200],
    ['practitioner', 'policy', 200],
    ['practitioner', 'projectB', 404],
    ['practitioner', 'otherObs', 404],
    ['practitioner', 'otherPatient', 404],
    ['practitioner', 'mariaUser', 404],
    ['practitioner', 'mariaLogin', 404],
    ['practitioner', 'membership', 404],
    ['practitioner', 'client', 404],
    ['practitioner', 'jwk', 404],
    ['admin', 'membership', 200],
    ['admin', 'client', 200],
    ['admin', 'policy', 200],
    ['admin', 'mariaUser', 200],
    ['admin', 'aishaObs', 200],
    ['admin', 'projectA', 200],
    ['admin', 'mariaLogin', 404],
    ['admin', 'jwk', 404],
    ['admin', 'otherObs', 404],
    ['admin', 'projectB', 404],
    ['otherAdmin', 'otherObs', 200],
    ['otherAdmin', 'otherPatient', 200],
    ['otherAdmin', 'projectB', 200],
    ['otherAdmin', 'mariaObs', 404],
    ['otherAdmin', 'maria', 404],
    ['otherAdmin', 'membership', 404],
    ['otherAdmin', 'projectA', 404],
    ['superAdmin', 'otherObs', 200],
    ['superAdmin', 'aishaObs', 200],
    ['superAdmin', 'mariaUser', 200],
    ['superAdmin', 'projectB', 200],
    ['system', 'mariaLogin', 200],
    ['system', 'otherObs', 200],
  ];

  describe.each(readMatrix)('read: %s reading %s', (who, name, expected) => {
    test(`SPEC §6 read, readResourceJson, vread and instance history answer ${expected}`, async () => {
      const target = fixtures()[name];
      const repo = repos[who];
      const reads = [
        repo.readResource(target.resourceType, target.id!),
        repo.readResourceJson(target.resourceType, target.id!),
        repo.readVersion(target.resourceType, target.id!, target.meta!.versionId!),
        repo.readHistory(target.resourceType, target.id!, { count: 10, offset: 0 }),
      ];
      for (const result of await Promise.all(reads.map(outcomeOf))) {
        expect(result.status).toBe(expected);
        if (expected === 404) {
          // Exactly as a missing resource: same message, nothing of the content.
          expect(result.message).toBe('Not found');
          expect(result.value).toBeUndefined();
        }
      }
      // The cache (PGlite) now holds the entry from an earlier read: the check still applies.
      await system.readResource(target.resourceType, target.id!);
      expect(await statusOf(repo.readResource(target.resourceType, target.id!))).toBe(expected);
      expect(await statusOf(repo.readResourceJson(target.resourceType, target.id!))).toBe(expected);
      const missing = await outcomeOf(repo.readResource(target.resourceType, crypto.randomUUID()));
      expect(missing).toEqual({ status: 404, message: 'Not found' });
    });
  });

  test('SPEC §6 a deleted resource of another project is 404, not 410; in its own project 410', async () => {
    expect(await outcomeOf(repos.practitioner.readResource('Observation', otherDeletedObs.id!))).toEqual({
      status: 404,
      message: 'Not found',
    });
    expect(await statusOf(repos.otherAdmin.readResource('Observation', otherDeletedObs.id!))).toBe(410);
    expect(await statusOf(repos.superAdmin.readResource('Observation', otherDeletedObs.id!))).toBe(410);
    expect(
      await statusOf(
        repos.practitioner.readHistory('Observation', otherDeletedObs.id!, { count: 5, offset: 0 }),
      ),
    ).toBe(404);
  });

  test('SPEC §6 secrets: User.passwordHash is stripped for every caller but the server; an admin reads ClientApplication.secret', async () => {
    for (const who of ['admin', 'superAdmin'] as const) {
      const user = await repos[who].readResource<User>('User', mariaUser.id!);
      expect(user.email).toBe('maria@example.com');
      expect(user.passwordHash).toBeUndefined();
      expect((await repos[who].readResourceJson('User', mariaUser.id!)).json).not.toContain(PASSWORD_HASH);
      const history = await repos[who].readHistory('User', mariaUser.id!, { count: 5, offset: 0 });
      expect(JSON.stringify(history)).not.toContain(PASSWORD_HASH);
      const list = await repos[who].listNewest<User>('User', { count: 50, offset: 0 });
      expect(list.items.map((u) => u.id)).toContain(mariaUser.id);
      expect(JSON.stringify(list)).not.toContain(PASSWORD_HASH);
      const version = await repos[who].readVersion<User>('User', mariaUser.id!, mariaUser.meta!.versionId!);
      expect(version.passwordHash).toBeUndefined();
    }
    expect((await system.readResource<User>('User', mariaUser.id!)).passwordHash).toBe(PASSWORD_HASH);
    expect((await repos.admin.readResource<ClientApplication>('ClientApplication', client.id!)).secret).toBe(
      'client-secret-for-admins',
    );
    // A super admin saving the User it read (without the hash) keeps the stored hash; a forged one is ignored.
    const read = await repos.superAdmin.readResource<User>('User', mariaUser.id!);
    const saved = await repos.superAdmin.updateResource<User>({
      ...read,
      lastName: 'García',
      passwordHash: 'forged',
    });
    expect(saved.resource.passwordHash).toBeUndefined();
    const stored = await system.readResource<User>('User', mariaUser.id!);
    expect(stored.lastName).toBe('García');
    expect(stored.passwordHash).toBe(PASSWORD_HASH);
    expect(stored.meta?.project).toBe(PROJECT_A);
  });

  describe('list and history (filtered in SQL)', () => {
    const page = { count: 100, offset: 0 };

    async function listIds(who: Who, type: string): Promise<string[]> {
      return (await repos[who].listNewest(type, page)).items.map((r) => `${r.resourceType}/${r.id}`);
    }

    async function typeHistoryIds(who: Who, type: string): Promise<string[]> {
      return (await repos[who].readTypeHistory(type, page)).items.map((r) => `${r.resourceType}/${r.id}`);
    }

    test('SPEC §6 a patient lists and sees type history only of their own compartment', async () => {
      const mariaCompartment = `Patient/${maria.id}`;
      for (const ids of [
        await listIds('maria', 'Observation'),
        await typeHistoryIds('maria', 'Observation'),
      ]) {
        expect(ids).toContain(`Observation/${mariaObs.id}`);
        expect(ids).not.toContain(`Observation/${aishaObs.id}`);
        expect(ids).not.toContain(`Observation/${otherObs.id}`);
      }
      const observations = await repos.maria.listNewest<Observation>('Observation', page);
      for (const observation of observations.items) {
        expect(observation.meta?.compartment).toContainEqual({ reference: mariaCompartment });
        expect(observation.meta?.project).toBe(PROJECT_A);
      }
      expect(await listIds('maria', 'Patient')).toEqual([`Patient/${maria.id}`]);
      expect(await listIds('aisha', 'Patient')).toEqual([`Patient/${aisha.id}`]);
      expect(await listIds('maria', 'Encounter')).toEqual([]);
      expect(await listIds('aisha', 'Encounter')).toEqual([`Encounter/${aishaEncounter.id}`]);
      for (const type of ['User', 'Login', 'ProjectMembership', 'Project', 'AccessPolicy']) {
        expect(await listIds('maria', type)).toEqual([]);
        expect(await typeHistoryIds('maria', type)).toEqual([]);
      }
      // A policy entry without compartment or criteria is the project's whole type, read-only.
      expect(await listIds('maria', 'Practitioner')).toEqual([`Practitioner/${chen.id}`]);
      const everything = JSON.stringify([
        await repos.maria.listNewest('Observation', page),
        await repos.maria.readTypeHistory('Observation', page),
        await repos.maria.readTypeHistory('Patient', page),
      ]);
      expect(everything).not.toContain(AISHA_SECRET);
      expect(everything).not.toContain(OTHER_PROJECT_SECRET);
    });

    test('SPEC §6 paging stays right: page by page a patient gets exactly their resources', async () => {
      const all = await listIds('maria', 'Observation');
      const paged: string[] = [];
      for (let offset = 0; ; offset++) {
        const result = await repos.maria.listNewest('Observation', { count: 1, offset });
        paged.push(...result.items.map((r) => `${r.resourceType}/${r.id}`));
        expect(result.items.length).toBe(1);
        if (!result.hasMore) {
          break;
        }
      }
      expect(paged).toEqual(all);
      const history = await repos.maria.readTypeHistory('Observation', { count: 1, offset: 0 });
      expect(history.items).toHaveLength(1);
    });

    test('SPEC §6 practitioners, admins and other projects list only their project; super admins every project', async () => {
      const practitioner = await listIds('practitioner', 'Observation');
      expect(practitioner).toEqual(
        expect.arrayContaining([`Observation/${mariaObs.id}`, `Observation/${aishaObs.id}`]),
      );
      expect(practitioner).not.toContain(`Observation/${otherObs.id}`);
      expect(await typeHistoryIds('practitioner', 'Observation')).not.toContain(`Observation/${otherObs.id}`);
      expect(await typeHistoryIds('practitioner', 'Observation')).not.toContain(
        `Observation/${otherDeletedObs.id}`,
      );
      expect(await listIds('practitioner', 'ProjectMembership')).toEqual([]);
      expect(await listIds('practitioner', 'User')).toEqual([]);
      expect(await listIds('practitioner', 'Project')).toEqual([`Project/${PROJECT_A}`]);
      expect(await listIds('admin', 'ProjectMembership')).toContain(`ProjectMembership/${membership.id}`);
      expect(await listIds('admin', 'Login')).toEqual([]);
      expect(await listIds('admin', 'JsonWebKey')).toEqual([]);
      const other = await listIds('otherAdmin', 'Observation');
      expect(other).toEqual([`Observation/${otherObs.id}`]);
      expect(await typeHistoryIds('otherAdmin', 'Observation')).toEqual(
        expect.arrayContaining([`Observation/${otherObs.id}`, `Observation/${otherDeletedObs.id}`]),
      );
      expect(await listIds('otherAdmin', 'Patient')).toEqual([`Patient/${otherPatient.id}`]);
      const superIds = await listIds('superAdmin', 'Observation');
      expect(superIds).toEqual(
        expect.arrayContaining([`Observation/${otherObs.id}`, `Observation/${aishaObs.id}`]),
      );
      expect(await listIds('superAdmin', 'Project')).toEqual(
        expect.arrayContaining([`Project/${PROJECT_A}`, `Project/${PROJECT_B}`]),
      );
    });

    test('SPEC §6 a resource that moved between patients: each sees only the versions that were theirs', async () => {
      const moving = await system.createResource(observationFor(aisha, `${AISHA_SECRET}-moving`));
      const moved = (
        await system.updateResource({
          ...moving,
          subject: { reference: `Patient/${maria.id}` },
          code: { text: 'now Maria' },
        })
      ).resource;
      // Maria sees the resource now, but not the version that was Aisha's.
      expect(await statusOf(repos.maria.readResource('Observation', moving.id!))).toBe(200);
      expect(await statusOf(repos.maria.readVersion('Observation', moving.id!, moved.meta!.versionId!))).toBe(
        200,
      );
      expect(
        await outcomeOf(repos.maria.readVersion('Observation', moving.id!, moving.meta!.versionId!)),
      ).toEqual({
        status: 404,
        message: 'Not found',
      });
      const history = await repos.maria.readHistory('Observation', moving.id!, page);
      expect(history.items.map((r) => r.versionId)).toEqual([moved.meta!.versionId]);
      expect(JSON.stringify(history)).not.toContain(AISHA_SECRET);
      const typeHistory = await repos.maria.readTypeHistory('Observation', page);
      expect(JSON.stringify(typeHistory)).not.toContain(AISHA_SECRET);
      // Aisha no longer sees it at all, not even her old version.
      expect(await statusOf(repos.aisha.readResource('Observation', moving.id!))).toBe(404);
      expect(
        await statusOf(repos.aisha.readVersion('Observation', moving.id!, moving.meta!.versionId!)),
      ).toBe(404);
      expect(await statusOf(repos.aisha.readHistory('Observation', moving.id!, page))).toBe(404);
      expect(await typeHistoryIds('aisha', 'Observation')).not.toContain(`Observation/${moving.id}`);
    });
  });

  describe('create', () => {
    // [caller, resource factory name, expected status]
    const createMatrix: [Who, string, number][] = [
      ['maria', 'observationForMaria', 200],
      ['maria', 'communicationFromMaria', 200],
      ['maria', 'observationForAisha', 403],
      // AccessPolicy.compartment places a resource that names no patient in hers (as Medplum does).
      ['maria', 'observationWithoutSubject', 200],
      ['maria', 'encounterForMaria', 403],
      ['maria', 'patient', 403],
      ['maria', 'practitioner', 403],
      ['maria', 'user', 404],
      ['maria', 'membershipA', 404],
      ['maria', 'project', 404],
      ['aisha', 'observationForAisha', 200],
      ['aisha', 'observationForMaria', 403],
      ['aisha', 'encounterForAisha', 403],
      ['practitioner', 'observationForAisha', 200],
      ['practitioner', 'patient', 200],
      ['practitioner', 'encounterForMaria', 200],
      ['practitioner', 'user', 403],
      ['practitioner', 'login', 403],
      ['practitioner', 'membershipA', 403],
      ['practitioner', 'client', 403],
      ['practitioner', 'jwk', 403],
      ['practitioner', 'project', 403],
      ['practitioner', 'policy', 403],
      ['admin', 'membershipA', 200],
      ['admin', 'client', 200],
      ['admin', 'policy', 200],
      ['admin', 'membershipB', 403],
      ['admin', 'user', 403],
      ['admin', 'login', 403],
      ['admin', 'jwk', 403],
      ['admin', 'project', 403],
      ['otherAdmin', 'observationForOther', 200],
      ['otherAdmin', 'membershipA', 403],
      ['superAdmin', 'observationForAisha', 200],
      ['superAdmin', 'project', 200],
      ['system', 'login', 200],
    ];

    const factories = (): Record<string, Resource> => ({
      observationForMaria: observationFor(maria, 'new weight'),
      observationForAisha: observationFor(aisha, 'new weight'),
      observationForOther: observationFor(otherPatient, 'new weight'),
      observationWithoutSubject: {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'no subject' },
      },
      communicationFromMaria: {
        resourceType: 'Communication',
        status: 'in-progress',
        subject: { reference: `Patient/${maria.id}` },
        payload: [{ contentString: 'Hello doctor' }],
      } satisfies Communication,
      encounterForMaria: { ...mariaEncounter, id: undefined, meta: undefined } as Encounter,
      encounterForAisha: { ...aishaEncounter, id: undefined, meta: undefined } as Encounter,
      patient: { resourceType: 'Patient', name: [{ given: ['New'] }] },
      practitioner: { resourceType: 'Practitioner', name: [{ family: 'New' }] },
      user: { resourceType: 'User', email: 'new@example.com', firstName: 'New', lastName: 'User' },
      login: { ...mariaLogin, id: undefined, meta: undefined } as Login,
      membershipA: { ...membership, id: undefined, meta: undefined } as ProjectMembership,
      membershipB: {
        ...membership,
        id: undefined,
        meta: undefined,
        project: { reference: `Project/${PROJECT_B}` },
      } as ProjectMembership,
      client: { resourceType: 'ClientApplication', name: 'New client' },
      jwk: { resourceType: 'JsonWebKey', active: false, alg: 'ES256', kty: 'EC' },
      project: { resourceType: 'Project', name: 'New project' },
      policy: { resourceType: 'AccessPolicy', name: 'New policy' },
    });

    test.each(createMatrix)('SPEC §6 %s creating %s answers %i', async (who, name, expected) => {
      const resource = factories()[name];
      const created = await outcomeOf(repos[who].createResource(resource));
      expect(created.status).toBe(expected);
      const conditional = await outcomeOf(
        // _id: every type has it (ClientApplication, AccessPolicy and Login have no identifier parameter).
        repos[who].conditionalCreate(resource, `_id=${crypto.randomUUID()}`),
      );
      expect(conditional.status).toBe(expected);
      if (expected === 200) {
        const stored = created.value as Resource;
        const context = contexts[who];
        const expectedProject = who === 'superAdmin' ? PROJECT_SUPER : context.project;
        expect(stored.meta?.project).toBe(expectedProject);
        expect(stored.meta?.author).toEqual(context.access?.profile ?? context.author);
        expect(await statusOf(repos[who].readResource(stored.resourceType, stored.id!))).toBe(200);
      } else {
        expect(created.message).toBe(expected === 404 ? 'Not found' : 'Forbidden');
      }
    });

    test('SPEC §6 meta.project: a client-supplied project is ignored, except from a super admin', async () => {
      const forged: Observation = {
        ...observationFor(maria, 'forged project'),
        meta: { project: PROJECT_B },
      };
      const byMaria = await repos.maria.createResource(forged);
      expect(byMaria.meta?.project).toBe(PROJECT_A);
      expect(byMaria.meta?.author).toEqual({ reference: `Patient/${maria.id}` });
      const byPractitioner = await repos.practitioner.createResource(forged);
      expect(byPractitioner.meta?.project).toBe(PROJECT_A);
      expect(await statusOf(repos.otherAdmin.readResource('Observation', byPractitioner.id!))).toBe(404);
      const bySuperAdmin = await repos.superAdmin.createResource(forged);
      expect(bySuperAdmin.meta?.project).toBe(PROJECT_B);
      expect(await statusOf(repos.otherAdmin.readResource('Observation', bySuperAdmin.id!))).toBe(200);
      expect(await statusOf(repos.practitioner.readResource('Observation', bySuperAdmin.id!))).toBe(404);
    });

    test('SPEC §6 conditional create never matches (or returns) what the caller cannot see', async () => {
      const identifier = { system: 'urn:test', value: crypto.randomUUID() };
      const aishas = await system.createResource({
        ...observationFor(aisha, AISHA_SECRET),
        identifier: [identifier],
      });
      const query = `identifier=${identifier.system}|${identifier.value}`;
      const result = await repos.maria.conditionalCreate(
        { ...observationFor(maria, 'mine'), identifier: [identifier] },
        query,
      );
      expect(result.created).toBe(true);
      expect(result.resource.id).not.toBe(aishas.id);
      expect(JSON.stringify(result)).not.toContain(AISHA_SECRET);
      expect(await repos.maria.findMatching('Observation', query)).toMatchObject({ id: result.resource.id });
      const again = await repos.maria.conditionalCreate(
        { ...observationFor(maria, 'mine'), identifier: [identifier] },
        query,
      );
      expect(again).toMatchObject({ created: false, resource: { id: result.resource.id } });
      // Another project's caller does not see either, and creates its own.
      const other = await repos.otherAdmin.conditionalCreate(
        { ...observationFor(otherPatient, 'theirs'), identifier: [identifier] },
        query,
      );
      expect(other.created).toBe(true);
      // The practitioner sees both of project A's: more than one match is a 412, not another project's row.
      expect(await statusOf(repos.practitioner.findMatching('Observation', query))).toBe(412);
    });
  });

  describe('update, patch and delete', () => {
    test('SPEC §6 a patient updates and patches their own Patient, and nothing else', async () => {
      const own = await repos.maria.readResource<Patient>('Patient', maria.id!);
      const updated = await repos.maria.updateResource<Patient>({ ...own, gender: 'female' });
      expect(updated.resource.gender).toBe('female');
      expect(updated.resource.meta?.author).toEqual({ reference: `Patient/${maria.id}` });
      expect(updated.resource.meta?.project).toBe(PROJECT_A);
      const patched = await repos.maria.patchResource<Patient>('Patient', maria.id!, [
        { op: 'add', path: '/birthDate', value: '1990-04-01' },
      ]);
      expect(patched.birthDate).toBe('1990-04-01');

      const cases: [string, () => Promise<unknown>, number][] = [
        ['update Aisha', () => repos.maria.updateResource({ ...aisha, gender: 'male' }), 404],
        [
          'patch Aisha',
          () =>
            repos.maria.patchResource('Patient', aisha.id!, [{ op: 'add', path: '/gender', value: 'male' }]),
          404,
        ],
        ['update own Observation', () => repos.maria.updateResource({ ...mariaObs, status: 'amended' }), 403],
        [
          'patch own Observation',
          () =>
            repos.maria.patchResource('Observation', mariaObs.id!, [
              { op: 'replace', path: '/status', value: 'amended' },
            ]),
          403,
        ],
        [
          'update Aisha Observation',
          () => repos.maria.updateResource({ ...aishaObs, status: 'amended' }),
          404,
        ],
        [
          'update other project Observation',
          () => repos.maria.updateResource({ ...otherObs, status: 'amended' }),
          404,
        ],
        ['update own User', () => repos.maria.updateResource({ ...mariaUser, firstName: 'X' }), 404],
        ['update own membership', () => repos.maria.updateResource({ ...membership, admin: true }), 404],
        [
          'patch own membership',
          () =>
            repos.maria.patchResource('ProjectMembership', membership.id!, [
              { op: 'add', path: '/admin', value: true },
            ]),
          404,
        ],
        [
          'update a practitioner (readable project-wide, read-only)',
          () => repos.maria.updateResource({ ...chen, gender: 'male' }),
          403,
        ],
        [
          'move own Patient out of her compartment is impossible: Aisha cannot update Maria',
          () => repos.aisha.updateResource({ ...maria }),
          404,
        ],
      ];
      for (const [label, call, expected] of cases) {
        const result = await outcomeOf(call());
        expect({ label, status: result.status }).toEqual({ label, status: expected });
        expect(JSON.stringify(result)).not.toContain(AISHA_SECRET);
      }
      // Nothing refused was written.
      expect((await system.readResource<Patient>('Patient', aisha.id!)).gender).toBeUndefined();
      expect((await system.readResource<Observation>('Observation', mariaObs.id!)).status).toBe('final');
      expect(
        (await system.readResource<ProjectMembership>('ProjectMembership', membership.id!)).admin,
      ).toBeUndefined();
    });

    test("SPEC §6 a patient never deletes: own 403, another patient's or project's 404", async () => {
      expect(await statusOf(repos.maria.deleteResource('Observation', mariaObs.id!))).toBe(403);
      expect(await statusOf(repos.maria.deleteResource('Patient', maria.id!))).toBe(403);
      expect(await statusOf(repos.maria.deleteResource('Observation', aishaObs.id!))).toBe(404);
      expect(await statusOf(repos.maria.deleteResource('Observation', otherObs.id!))).toBe(404);
      expect(await statusOf(repos.maria.deleteResource('User', mariaUser.id!))).toBe(404);
      expect(await statusOf(repos.maria.readResource('Observation', mariaObs.id!))).toBe(200);
      expect(await statusOf(system.readResource('Observation', aishaObs.id!))).toBe(200);
    });

    test('SPEC §6 a practitioner writes within the project only, never the identity types', async () => {
      const obs = await repos.practitioner.createResource(observationFor(aisha, 'to change'));
      const updated = await repos.practitioner.updateResource({ ...obs, status: 'amended' });
      expect(updated.resource.meta?.author).toEqual({ reference: `Practitioner/${chen.id}` });
      expect(
        await statusOf(
          repos.practitioner.patchResource('Observation', obs.id!, [
            { op: 'replace', path: '/status', value: 'final' },
          ]),
        ),
      ).toBe(200);
      expect(await statusOf(repos.practitioner.deleteResource('Observation', obs.id!))).toBe(200);
      expect(await statusOf(system.readResource('Observation', obs.id!))).toBe(410);

      expect(await statusOf(repos.practitioner.updateResource({ ...otherObs, status: 'amended' }))).toBe(404);
      expect(
        await statusOf(
          repos.practitioner.patchResource('Observation', otherObs.id!, [
            { op: 'replace', path: '/status', value: 'amended' },
          ]),
        ),
      ).toBe(404);
      expect(await statusOf(repos.practitioner.deleteResource('Observation', otherObs.id!))).toBe(404);
      expect(await statusOf(repos.practitioner.deleteResource('Observation', otherDeletedObs.id!))).toBe(404);
      const untouched = await system.readResource<Observation>('Observation', otherObs.id!);
      expect(untouched.status).toBe('final');
      expect(untouched.meta?.project).toBe(PROJECT_B);

      expect(await statusOf(repos.practitioner.updateResource({ ...mariaUser, firstName: 'X' }))).toBe(403);
      expect(await statusOf(repos.practitioner.deleteResource('User', mariaUser.id!))).toBe(403);
      expect(
        await statusOf(
          repos.practitioner.patchResource('ProjectMembership', membership.id!, [
            { op: 'add', path: '/admin', value: true },
          ]),
        ),
      ).toBe(403);
      expect(await statusOf(repos.practitioner.updateResource({ ...projectA, name: 'Renamed' }))).toBe(403);
      expect(await statusOf(repos.practitioner.deleteResource('Login', mariaLogin.id!))).toBe(403);
    });

    test('SPEC §6 a project admin manages memberships and clients of the project, not Login, JsonWebKey or other projects', async () => {
      const updated = await repos.admin.updateResource<ProjectMembership>({ ...membership, active: true });
      expect(updated.resource.active).toBe(true);
      expect(
        await statusOf(
          repos.admin.updateResource({ ...membership, project: { reference: `Project/${PROJECT_B}` } }),
        ),
      ).toBe(403);
      expect(
        await statusOf(
          repos.admin.patchResource('ClientApplication', client.id!, [
            { op: 'add', path: '/description', value: 'x' },
          ]),
        ),
      ).toBe(200);
      expect(await statusOf(repos.admin.updateResource({ ...mariaLogin, revoked: true }))).toBe(403);
      expect(await statusOf(repos.admin.deleteResource('JsonWebKey', jwk.id!))).toBe(403);
      expect(await statusOf(repos.admin.updateResource({ ...mariaUser, firstName: 'X' }))).toBe(403);
      expect(await statusOf(repos.otherAdmin.updateResource({ ...membership, admin: true }))).toBe(404);
      expect(await statusOf(repos.otherAdmin.deleteResource('ProjectMembership', membership.id!))).toBe(404);
      expect((await system.readResource<Login>('Login', mariaLogin.id!)).revoked).toBeUndefined();
      expect(
        (await system.readResource<ProjectMembership>('ProjectMembership', membership.id!)).project,
      ).toEqual({
        reference: `Project/${PROJECT_A}`,
      });
    });

    test("SPEC §6 a super admin updating another project's resource leaves it in that project", async () => {
      const updated = await repos.superAdmin.updateResource({ ...otherObs, status: 'amended' });
      expect(updated.resource.meta?.project).toBe(PROJECT_B);
      expect(updated.resource.meta?.author).toEqual({ reference: 'Practitioner/root' });
      expect(await statusOf(repos.otherAdmin.readResource('Observation', otherObs.id!))).toBe(200);
      expect(await statusOf(repos.practitioner.readResource('Observation', otherObs.id!))).toBe(404);
      otherObs = (await repos.superAdmin.updateResource({ ...updated.resource, status: 'final' })).resource;
    });

    test('SPEC §6 PUT of a new id follows the create rules', async () => {
      const id = crypto.randomUUID();
      expect(await statusOf(repos.maria.updateResource({ ...observationFor(aisha, 'x'), id }))).toBe(403);
      expect(await statusOf(repos.maria.updateResource({ resourceType: 'Patient', id }))).toBe(403);
      const created = await repos.maria.updateResource({ ...observationFor(maria, 'x'), id });
      expect(created.created).toBe(true);
      expect(created.resource.meta?.project).toBe(PROJECT_A);
    });
  });

  describe('batch and transaction (the same Repository methods per entry)', () => {
    test("SPEC §6 a patient's batch: each entry allowed or refused on its own, refused content never in the response", async () => {
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'GET', url: `Observation/${mariaObs.id}` } },
          { request: { method: 'GET', url: `Observation/${aishaObs.id}` } },
          { request: { method: 'GET', url: `Patient/${aisha.id}` } },
          { request: { method: 'GET', url: `Observation/${otherObs.id}` } },
          { request: { method: 'GET', url: 'Observation' } },
          { request: { method: 'GET', url: `Observation/${aishaObs.id}/_history` } },
          {
            request: {
              method: 'GET',
              url: `Observation/${aishaObs.id}/_history/${aishaObs.meta!.versionId}`,
            },
          },
          { request: { method: 'GET', url: 'Observation/_history' } },
          {
            request: { method: 'POST', url: 'Observation' },
            resource: observationFor(maria, 'batch weight'),
          },
          {
            request: { method: 'POST', url: 'Observation' },
            resource: observationFor(aisha, 'batch weight'),
          },
          { request: { method: 'PUT', url: `Patient/${aisha.id}` }, resource: { ...aisha, gender: 'male' } },
          { request: { method: 'DELETE', url: `Observation/${mariaObs.id}` } },
          { request: { method: 'DELETE', url: `Observation/${aishaObs.id}` } },
          { request: { method: 'GET', url: `User/${mariaUser.id}` } },
        ],
      };
      const response = await processBatch(repos.maria, FHIR_BASE, bundle);
      expect(response.entry?.map((e) => e.response?.status)).toEqual([
        '200',
        '404',
        '404',
        '404',
        '200',
        '404',
        '404',
        '200',
        '201',
        '403',
        '404',
        '403',
        '404',
        '404',
      ]);
      const text = JSON.stringify(response);
      expect(text).not.toContain(AISHA_SECRET);
      expect(text).not.toContain(OTHER_PROJECT_SECRET);
      expect(text).not.toContain(PASSWORD_HASH);
      const list = response.entry?.[4].resource as Bundle;
      expect(list.entry?.length).toBeGreaterThan(0);
      for (const entry of (list.entry ?? []).filter((e) => e.search?.mode === 'match')) {
        expect(entry.resource?.meta?.compartment).toContainEqual({ reference: `Patient/${maria.id}` });
      }
      expect(response.entry?.[1].response?.outcome?.issue?.[0].details?.text).toBe('Not found');
    });

    test("SPEC §6 a practitioner's and another project admin's batch see only their project", async () => {
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'GET', url: `Observation/${aishaObs.id}` } },
          { request: { method: 'GET', url: `Observation/${otherObs.id}` } },
          { request: { method: 'GET', url: `ProjectMembership/${membership.id}` } },
          {
            request: { method: 'POST', url: 'User' },
            resource: { resourceType: 'User', email: 'b@example.com', firstName: 'B', lastName: 'B' },
          },
        ],
      };
      const practitioner = await processBatch(repos.practitioner, FHIR_BASE, bundle);
      expect(practitioner.entry?.map((e) => e.response?.status)).toEqual(['200', '404', '404', '403']);
      expect(JSON.stringify(practitioner)).not.toContain(OTHER_PROJECT_SECRET);
      const other = await processBatch(repos.otherAdmin, FHIR_BASE, bundle);
      expect(other.entry?.map((e) => e.response?.status)).toEqual(['404', '200', '404', '403']);
      expect(JSON.stringify(other)).not.toContain(AISHA_SECRET);
    });

    test("SPEC §6 a transaction with one refused entry stores nothing and answers that entry's status", async () => {
      const marker = `tx-${crypto.randomUUID()}`;
      const refused = async (repo: Repository, entries: Bundle['entry']) =>
        outcomeOf(
          processBatch(repo, FHIR_BASE, { resourceType: 'Bundle', type: 'transaction', entry: entries }),
        );
      const create = {
        request: { method: 'POST' as const, url: 'Observation' },
        resource: observationFor(maria, marker),
      };

      const notFound = await refused(repos.maria, [
        create,
        { request: { method: 'PUT', url: `Patient/${aisha.id}` }, resource: { ...aisha, gender: 'male' } },
      ]);
      expect(notFound.status).toBe(404);
      expect(notFound.message).toContain('Not found');
      expect(notFound.message).not.toContain(AISHA_SECRET);
      const forbidden = await refused(repos.maria, [
        create,
        { request: { method: 'POST', url: 'Observation' }, resource: observationFor(aisha, marker) },
      ]);
      expect(forbidden.status).toBe(403);
      const otherProject = await refused(repos.practitioner, [
        create,
        { request: { method: 'DELETE', url: `Observation/${otherObs.id}` } },
      ]);
      expect(otherProject.status).toBe(404);
      const stored = await system.listNewest<Observation>('Observation', { count: 1000, offset: 0 });
      expect(stored.items.filter((o) => o.code?.text === marker)).toEqual([]);
      expect(await statusOf(system.readResource('Observation', otherObs.id!))).toBe(200);

      const allowed = await processBatch(repos.maria, FHIR_BASE, {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { fullUrl: 'urn:uuid:9f1c5a52-0000-4000-8000-000000000001', ...create },
          {
            request: { method: 'POST', url: 'Communication' },
            resource: {
              resourceType: 'Communication',
              status: 'completed',
              subject: { reference: `Patient/${maria.id}` },
              about: [{ reference: 'urn:uuid:9f1c5a52-0000-4000-8000-000000000001' }],
            },
          },
          { request: { method: 'GET', url: `Patient/${maria.id}` } },
        ],
      });
      expect(allowed.entry?.map((e) => e.response?.status)).toEqual(['201', '201', '200']);
      expect(allowed.entry?.[0].resource?.meta?.project).toBe(PROJECT_A);
    });
  });
});
