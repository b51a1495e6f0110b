// Seeding the demo clinic: written once, readable through the Repository with
// the project's meta, all or nothing, on each database engine.
import type {
  AccessPolicy,
  Appointment,
  ClientApplication,
  DiagnosticReport,
  Observation,
  Patient,
  Project,
  Resource,
  Slot,
  User,
} from '@medplum/fhirtypes';
import { verifyPassword } from '../../../src/server/auth/passwords';
import { buildDemoClinic, DEMO_ACCOUNTS } from '../../../src/server/seed/demo';
import type { Database, Queryable, SqlValue } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { findMembershipsByUser, findUserByEmail } from '../../../src/server/repo/lookups';
import { seedDemoClinic } from '../../../src/server/seed';
import { databases } from '../support/test-databases';

const TODAY = new Date('2026-03-10T10:00:00Z');
const { bundle } = buildDemoClinic(TODAY);
const expectedCounts = new Map<string, number>();
for (const entry of bundle.entry ?? []) {
  const type = entry.resource?.resourceType as string;
  expectedCounts.set(type, (expectedCounts.get(type) ?? 0) + 1);
}
// After the bundle: the pregnancy care template, applied to Maria and Aisha (a CarePlan each).
const TEMPLATE_WRITES = 3;
expectedCounts.set('PlanDefinition', (expectedCounts.get('PlanDefinition') ?? 0) + 1);
expectedCounts.set('CarePlan', (expectedCounts.get('CarePlan') ?? 0) + 2);

async function listAll<T extends Resource>(repo: Repository, type: string): Promise<T[]> {
  return (await repo.listNewest<T>(type, { count: 1000, offset: 0 })).items;
}

async function countAll(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM resource');
  return Number(rows[0].n);
}

/** A Database whose transactions fail on the nth write inside them, as a full disk or a crash would. */
function failingOnWrite(db: Database, failAt: number): Database {
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    close: () => db.close(),
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      let writes = 0;
      return db.transaction((tx) =>
        fn({
          query<Row>(sql: string, params?: readonly SqlValue[]) {
            if (/^\s*(INSERT|WITH)/i.test(sql) && ++writes === failAt) {
              return Promise.reject(new Error(`simulated failure on write ${failAt}`));
            }
            return tx.query<Row>(sql, params);
          },
        }),
      );
    },
  };
}

describe.each(databases())('seedDemoClinic on %s', (_engine, kind) => {
  let db: Database;
  let repo: Repository;

  beforeAll(async () => {
    db = await kind.open();
    repo = new Repository(db, systemContext());
  });

  afterAll(async () => {
    await db.close();
  });

  test('a failed seed writes nothing at all (the next test then seeds the same database)', async () => {
    const before = await countAll(db);
    // Fail late in the transaction: the Project and over a hundred entries are written by then.
    const broken = new Repository(failingOnWrite(db, 150), systemContext());
    const error = await seedDemoClinic(broken, { today: TODAY }).then(
      () => undefined,
      (err: unknown) => err as Error & { cause?: Error },
    );
    expect(error?.message).toMatch(/^Bundle\.entry\[\d+\]: Internal server error/);
    expect(error?.cause?.message).toBe('simulated failure on write 150');
    expect(await countAll(db)).toBe(before);
    expect(await listAll(repo, 'Project')).toEqual([]);
  });

  test('the first seed writes the Project and every bundle entry, through validation', async () => {
    const result = await seedDemoClinic(repo, { today: TODAY, demoPassword: 'bloom-demo' });
    expect(result.seeded).toBe(true);
    const projects = await listAll<Project>(repo, 'Project');
    expect(projects.map((p) => [p.id, p.name])).toEqual([[result.projectId, 'Bloom Clinic']]);
    for (const [type, count] of expectedCounts) {
      expect([type, (await listAll(repo, type)).length]).toEqual([type, count]);
    }
  });

  test('seeding again writes nothing and returns the same project', async () => {
    const before = await countAll(db);
    const first = (await listAll<Project>(repo, 'Project'))[0];
    const again = await seedDemoClinic(repo, { today: new Date() });
    expect(again).toEqual({ seeded: false, projectId: first.id });
    expect(await countAll(db)).toBe(before);
  });

  test('two seeds racing on a fresh database write the clinic once', async () => {
    const fresh = await kind.open();
    try {
      const freshRepo = new Repository(fresh, systemContext());
      // The clinic's size depends on the day (free slots fall on weekdays), so both seed as of TODAY.
      const racing = () => seedDemoClinic(freshRepo, { today: TODAY });
      const results = await Promise.all([racing(), racing()]);
      expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
      expect(results[0].projectId).toBe(results[1].projectId);
      // The Project, the bundle, and the sign-ins: the patient, staff and admin AccessPolicies, a
      // User and a membership per demo account, the app's ClientApplication; the template's writes.
      expect(await countAll(fresh)).toBe(
        (bundle.entry?.length ?? 0) + 1 + 3 + 2 * DEMO_ACCOUNTS.length + 1 + TEMPLATE_WRITES,
      );
    } finally {
      await fresh.close();
    }
  });

  test('seeded resources are readable, stamped with the project, and their references rewritten', async () => {
    const [project] = await listAll<Project>(repo, 'Project');
    const patients = await listAll<Patient>(repo, 'Patient');
    const maria = patients.find((p) => p.telecom?.some((t) => t.value === 'maria@bloom.example')) as Patient;
    expect(await repo.readResource('Patient', maria.id as string)).toEqual(maria);
    expect(project.meta?.project).toBe(project.id);
    expect(maria.meta?.project).toBe(project.id);
    expect(maria.meta?.versionId).toBeTruthy();
    expect(maria.meta?.compartment).toEqual([{ reference: `Patient/${maria.id}` }]);

    const gp = maria.generalPractitioner?.[0];
    expect(gp?.reference).toMatch(/^Practitioner\/[0-9a-f-]{36}$/);
    expect(gp?.display).toBe('Dr. Lily Chen');
    const [, gpId] = (gp?.reference as string).split('/');
    expect((await repo.readResource('Practitioner', gpId)).resourceType).toBe('Practitioner');

    const reports = await listAll<DiagnosticReport>(repo, 'DiagnosticReport');
    const cbc = reports.find(
      (r) => r.presentedForm && r.subject?.reference === `Patient/${maria.id}`,
    ) as DiagnosticReport;
    const [, firstResultId] = (cbc.result?.[0]?.reference as string).split('/');
    const result = await repo.readResource<Observation>('Observation', firstResultId);
    expect(result.subject?.reference).toBe(`Patient/${maria.id}`);
    expect(result.meta?.compartment).toEqual([{ reference: `Patient/${maria.id}` }]);

    const json = JSON.stringify(
      await Promise.all([...expectedCounts.keys()].map((type) => listAll(repo, type))),
    );
    expect(json).not.toContain('urn:uuid:');
  });

  test('upcoming appointments point at busy slots of the seeded schedule', async () => {
    const appointments = await listAll<Appointment>(repo, 'Appointment');
    const upcoming = appointments.filter((a) => a.status === 'booked');
    expect(upcoming.length).toBeGreaterThan(0);
    for (const appointment of upcoming) {
      const [, slotId] = (appointment.slot?.[0]?.reference as string).split('/');
      const slot = await repo.readResource<Slot>('Slot', slotId);
      expect([slot.status, slot.start]).toEqual(['busy', appointment.start]);
    }
  });
  test('issue #3 the demo accounts: a User with the hashed password and a membership each', async () => {
    const [project] = await listAll<Project>(repo, 'Project');
    const policy = project.defaultPatientAccessPolicy;
    expect(policy?.reference).toMatch(/^AccessPolicy\//);
    for (const account of DEMO_ACCOUNTS) {
      const user = (await findUserByEmail(db, account.email)) as User;
      expect(user.passwordHash).toMatch(/^scrypt\$/);
      expect(user.passwordHash).not.toContain('bloom-demo');
      expect(await verifyPassword('bloom-demo', user.passwordHash)).toBe(true);
      const memberships = await findMembershipsByUser(db, `User/${user.id}`);
      expect(memberships).toHaveLength(1);
      const [membership] = memberships;
      expect(membership.project?.reference).toBe(`Project/${project.id}`);
      expect(membership.meta?.project).toBe(project.id);
      expect(membership.profile.reference?.split('/')[0]).toBe(account.profileType);
      const profile = await repo.readResource<Patient>(
        account.profileType,
        membership.profile.reference?.split('/')[1] as string,
      );
      expect(profile.telecom?.some((t) => t.value === account.email)).toBe(true);
      // SPEC §6 as data: patients the patient policy, Dr. Chen the staff policy, the admin both
      // the staff and the admin policy as access[] (and admin: true).
      const names = async (refs: (string | undefined)[]) =>
        Promise.all(
          refs.map(
            async (ref) =>
              (await repo.readResource<AccessPolicy>('AccessPolicy', ref?.split('/')[1] as string)).name,
          ),
        );
      if (account.role === 'patient') {
        expect(membership.accessPolicy).toEqual(policy);
        expect(membership.access).toBeUndefined();
      } else if (account.role === 'practitioner') {
        expect(await names([membership.accessPolicy?.reference])).toEqual(['Bloom clinic staff']);
        expect(membership.access).toBeUndefined();
      } else {
        expect(membership.accessPolicy).toBeUndefined();
        expect(membership.access?.every((a) => a.parameter === undefined)).toBe(true);
        expect(await names((membership.access ?? []).map((a) => a.policy?.reference))).toEqual([
          'Bloom clinic staff',
          'Bloom admin',
        ]);
      }
      expect(membership.admin).toBe(account.role === 'admin' ? true : undefined);
    }
    const clients = await listAll<ClientApplication>(repo, 'ClientApplication');
    expect(clients.map((c) => c.name)).toEqual(['Bloom app']);
  });
});
