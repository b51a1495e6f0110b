// The read cache and the auth cache across server instances: on PostgreSQL two pools on one schema
// (two processes behind a load balancer), on PGlite two servers on the one database. A write through
// one instance is seen by the other's next reads (PostgreSQL: through the database's notifications),
// a revoked sign-in or a changed policy takes effect on both, a cached resource is access-checked
// for every caller, and a lost notification connection takes the cache away until it is back.
// Real HTTP, real tokens. SPEC §6 (access control), §7 (authentication).
import crypto from 'node:crypto';
import type { AccessPolicy, Login, Patient, ProjectMembership } from '@medplum/fhirtypes';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { authCacheFor } from '../../../src/server/auth/auth-cache';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import type { Database } from '../../../src/server/db';
import { openPostgres } from '../../../src/server/db';
import { findTestPort } from '../../support/test-port';
import { migrateServer } from '../../../src/server/migrations';
import { Repository, systemContext } from '../../../src/server/repo';
import { resourceCacheFor } from '../../../src/server/repo/resource-cache';
import { notifiedKey } from '../../../src/server/repo/shared-cache';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import { databases, openTestPGlite } from '../support/test-databases';

interface Instance {
  app: FastifyInstance;
  db: Database;
  base: string;
}

/** Polls `check` until it holds (a notification travels through the database), at most 5 s. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  const until = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > until) {
      throw new Error('condition not met within 5 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test('notifiedKey reads the write notification payload', () => {
  expect(notifiedKey('12|Patient|abc|w')).toBe('Patient/abc');
  expect(notifiedKey('12|Login|x-1|d')).toBe('Login/x-1');
  expect(notifiedKey('garbage')).toBeUndefined();
});

describe.each(databases())('caches across two server instances on %s', (engine) => {
  const url = process.env.TEST_DATABASE_URL;
  const schema = `shared_cache_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const dbs: Database[] = [];
  const instances: Instance[] = [];
  let publicBase: string | undefined;

  async function start(db: Database): Promise<Instance> {
    const port = await findTestPort('localhost');
    publicBase ??= `http://localhost:${port}/`;
    const config = loadConfig({ PORT: String(port), LOG_LEVEL: 'silent', BASE_URL: publicBase });
    const app = await buildServer({ config, db });
    await app.listen({ port, host: 'localhost' });
    return { app, db, base: `http://localhost:${port}/` };
  }

  beforeAll(async () => {
    if (engine === 'postgres') {
      for (let i = 0; i < 2; i++) {
        const db = await openPostgres({ connectionString: url as string, schema, maxConnections: 4 });
        await migrateServer(db);
        dbs.push(db);
      }
    } else {
      const db = await openTestPGlite();
      dbs.push(db, db);
    }
    for (const db of dbs) {
      instances.push(await start(db));
    }
  });

  afterAll(async () => {
    for (const instance of instances) {
      await instance.app.close();
    }
    for (const db of new Set(dbs)) {
      await db.close();
    }
    if (engine === 'postgres') {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  const get = async (instance: Instance, path: string, token: string): Promise<Response> =>
    fetch(`${instance.base}fhir/R4/${path}`, { headers: { authorization: `Bearer ${token}` } });

  async function account(profile: 'Patient' | 'Practitioner', projectId?: string) {
    const db = dbs[0];
    const project = projectId
      ? await new Repository(db, systemContext(projectId)).readResource<import('@medplum/fhirtypes').Project>(
          'Project',
          projectId,
        )
      : await createProject(db);
    const user = await createUser(db);
    const membership = await addMembership(db, user, project, profile);
    const tokens = await signIn(instances[0].base, user.email as string);
    return { project, membership, token: tokens.access_token };
  }

  test('both instances keep a read cache while they hear every write', () => {
    for (const db of dbs) {
      expect(resourceCacheFor(db)).toBeDefined();
    }
  });

  test("a write through one instance is seen by the other's next read", async () => {
    const { membership, token } = await account('Practitioner');
    const repoB = new Repository(dbs[1], systemContext(membership.project?.reference?.split('/')[1]));
    const patient = await repoB.createResource<Patient>({ resourceType: 'Patient', gender: 'female' });
    // Instance A reads it (and caches it), then B changes it.
    const first = await get(instances[0], `Patient/${patient.id}`, token);
    expect(((await first.json()) as Patient).gender).toBe('female');
    expect(resourceCacheFor(dbs[0])?.getJson(`Patient/${patient.id}`)).toBeDefined();
    await repoB.updateResource<Patient>({ ...patient, gender: 'male' });
    await eventually(async () => {
      const again = (await (await get(instances[0], `Patient/${patient.id}`, token)).json()) as Patient;
      return again.gender === 'male';
    });
    await repoB.deleteResource('Patient', patient.id as string);
    await eventually(async () => (await get(instances[0], `Patient/${patient.id}`, token)).status === 410);
  });

  test('a cached resource is still access-checked for each caller: a patient never reads another patient', async () => {
    const maria = await account('Patient');
    const projectId = maria.project.id as string;
    const other = await account('Patient', projectId);
    const mariaId = maria.membership.profile.reference as string;
    // Her own record, read by her on both instances: cached.
    for (const instance of instances) {
      expect((await get(instance, mariaId, maria.token)).status).toBe(200);
    }
    expect(resourceCacheFor(dbs[0])?.getJson(mariaId)).toBeDefined();
    // The other patient of the same project gets 404 for it from the cache, as from SQL.
    for (const instance of instances) {
      expect((await get(instance, mariaId, other.token)).status).toBe(404);
    }
  });

  test('a Login revoked through one instance ends its token on the other', async () => {
    const { token } = await account('Practitioner');
    const loginId = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).login_id as string;
    expect((await get(instances[0], 'Patient?_count=1', token)).status).toBe(200);
    expect(authCacheFor(dbs[0])?.size).toBeGreaterThan(0);
    const repoB = new Repository(dbs[1], systemContext());
    const login = await repoB.readResource<Login>('Login', loginId);
    await repoB.updateResource<Login>({ ...login, revoked: true });
    await eventually(async () => (await get(instances[0], 'Patient?_count=1', token)).status === 401);
    expect((await get(instances[1], 'Patient?_count=1', token)).status).toBe(401);
  });

  test("a membership's new policy through one instance applies on the other's next request", async () => {
    const { membership, token, project } = await account('Practitioner');
    const repoB = new Repository(dbs[1], systemContext(project.id));
    const patient = await repoB.createResource<Patient>({ resourceType: 'Patient' });
    expect((await get(instances[0], `Patient/${patient.id}`, token)).status).toBe(200);
    const onlyObservations = await repoB.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Observation' }],
    });
    await repoB.updateResource<ProjectMembership>({
      ...membership,
      accessPolicy: { reference: `AccessPolicy/${onlyObservations.id}` },
    });
    await eventually(async () => (await get(instances[0], `Patient/${patient.id}`, token)).status === 404);
  });

  if (engine === 'postgres') {
    test('a lost notification connection takes the cache away until it is back, then starts empty', async () => {
      const { token, project } = await account('Practitioner');
      const repoB = new Repository(dbs[1], systemContext(project.id));
      const patient = await repoB.createResource<Patient>({ resourceType: 'Patient' });
      expect((await get(instances[0], `Patient/${patient.id}`, token)).status).toBe(200);
      const before = resourceCacheFor(dbs[0]);
      expect(before?.getJson(`Patient/${patient.id}`)).toBeDefined();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        // Every LISTEN connection on this schema's write channel (both instances' caches and live updates).
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
          [`LISTEN "bloom_live_${schema}"`],
        );
      } finally {
        await admin.end();
      }
      await eventually(() => resourceCacheFor(dbs[0]) === undefined);
      expect(before?.getJson(`Patient/${patient.id}`)).toBeUndefined();
      // Meanwhile reads go to SQL and stay correct.
      await repoB.updateResource<Patient>({ ...patient, gender: 'other' });
      const during = (await (await get(instances[0], `Patient/${patient.id}`, token)).json()) as Patient;
      expect(during.gender).toBe('other');
      await eventually(() => resourceCacheFor(dbs[0]) !== undefined);
      expect(resourceCacheFor(dbs[0])?.getJson(`Patient/${patient.id}`)).toBeUndefined();
    });
  }
});
