// Access control over real HTTP (SPEC §6, §7): the demo
// clinic seeded, real sign-ins (auth/login → oauth2/token) for Maria, Aisha, Dr Chen and the clinic
// admin, another project's admin, and anonymous, expired and foreign-signed callers, against the
// FHIR API. Another patient's or project's resource is 404 with no content; no token is 401.
import type { Bundle, JsonWebKey as JsonWebKeyResource, Observation, Patient } from '@medplum/fhirtypes';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import { seedDemoClinic } from '../../../src/server/seed';
import { findActiveJsonWebKeys } from '../../../src/server/repo/lookups';
import { Repository, systemContext } from '../../../src/server/repo';
import {
  addMembership,
  createProject,
  createUser,
  getJson,
  outcomeText,
  signIn,
} from '../auth/support/auth-fixtures';
import type { JsonResponse, Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const DEMO_PASSWORD = 'bloom-demo';
const AISHA_MARKER = 'aisha-rest-private-reading-4412';

describe.each(databases())('SPEC §6 access control over HTTP on %s', (_engine, kind) => {
  let server: TestServer;
  let maria: Tokens;
  let aisha: Tokens;
  let chen: Tokens;
  let admin: Tokens;
  let otherAdmin: Tokens;
  let mariaObs: Observation;
  let aishaObs: Observation;

  async function request<T = Record<string, unknown>>(
    method: string,
    path: string,
    tokens: Tokens | string | undefined,
    body?: unknown,
    contentType = 'application/fhir+json',
  ): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = {};
    const token = typeof tokens === 'string' ? tokens : tokens?.access_token;
    if (token) {
      headers.authorization = `Bearer ${token}`;
    }
    if (body !== undefined) {
      headers['content-type'] = contentType;
    }
    const response = await fetch(`${server.fhirUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T, headers: response.headers };
  }

  const observationFor = (tokens: Tokens, text: string): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { text },
    subject: { reference: tokens.profile?.reference },
  });

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEMO_PASSWORD });
    [maria, aisha, chen, admin] = await Promise.all(
      ['maria', 'aisha', 'dr.chen', 'admin'].map((name) =>
        signIn(server.baseUrl, `${name}@bloom.example`, DEMO_PASSWORD),
      ),
    );
    const otherProject = await createProject(server.db, 'Other Clinic');
    const otherUser = await createUser(server.db);
    await addMembership(server.db, otherUser, otherProject, 'Practitioner', { admin: true });
    otherAdmin = await signIn(server.baseUrl, otherUser.email as string);
    const created = await request<Observation>(
      'POST',
      'Observation',
      maria,
      observationFor(maria, 'Maria weight'),
    );
    expect(created.status).toBe(201);
    mariaObs = created.body;
    const aishas = await request<Observation>(
      'POST',
      'Observation',
      aisha,
      observationFor(aisha, AISHA_MARKER),
    );
    expect(aishas.status).toBe(201);
    aishaObs = aishas.body;
  });

  afterAll(async () => {
    await server.close();
  });

  test("SPEC §6 Maria reads her own Observation and Patient; Aisha's Observation and Patient are 404 with no content", async () => {
    expect((await request('GET', `Observation/${mariaObs.id}`, maria)).status).toBe(200);
    expect((await request('GET', maria.profile?.reference as string, maria)).status).toBe(200);
    for (const path of [
      `Observation/${aishaObs.id}`,
      `Observation/${aishaObs.id}/_history`,
      `Observation/${aishaObs.id}/_history/${aishaObs.meta?.versionId}`,
      aisha.profile?.reference as string,
    ]) {
      const response = await request('GET', path, maria);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(outcomeText(response.body)).toBe('Not found');
      expect(JSON.stringify(response.body)).not.toContain(AISHA_MARKER);
    }
    // Exactly what a resource that does not exist answers.
    const missing = await request('GET', `Observation/${crypto.randomUUID()}`, maria);
    const hidden = await request('GET', `Observation/${aishaObs.id}`, maria);
    expect(hidden.body).toEqual(missing.body);
    expect((await request('GET', `Observation/${aishaObs.id}`, aisha)).status).toBe(200);
  });

  test("SPEC §6 search and history list only Maria's compartment; Dr Chen sees the clinic; another project sees neither", async () => {
    const ids = async (tokens: Tokens, path: string) =>
      ((await request<Bundle>('GET', path, tokens)).body.entry ?? [])
        .map((e) => e.resource)
        .filter((r) => r?.resourceType === 'Observation')
        .map((r) => r?.id);
    for (const path of ['Observation?_count=100', 'Observation/_history?_count=100']) {
      const mine = await ids(maria, path);
      expect(mine).toContain(mariaObs.id);
      expect(mine).not.toContain(aishaObs.id);
      expect(JSON.stringify((await request('GET', path, maria)).body)).not.toContain(AISHA_MARKER);
      expect(await ids(chen, path)).toEqual(expect.arrayContaining([mariaObs.id, aishaObs.id]));
      const other = await ids(otherAdmin, path);
      expect(other).not.toContain(mariaObs.id);
      expect(other).not.toContain(aishaObs.id);
    }
    const patients = (await request<Bundle>('GET', 'Patient', maria)).body.entry?.filter(
      (e) => e.search?.mode === 'match',
    );
    expect(patients?.map((e) => `Patient/${e.resource?.id}`)).toEqual([maria.profile?.reference]);
  });

  test("SPEC §6 writes: Maria creates only for herself, updates her Patient, never another patient's", async () => {
    expect((await request('POST', 'Observation', maria, observationFor(aisha, 'not hers'))).status).toBe(403);
    expect(
      (
        await request('POST', 'Encounter', maria, {
          resourceType: 'Encounter',
          status: 'planned',
          class: { code: 'AMB' },
          subject: maria.profile,
        })
      ).status,
    ).toBe(403);
    // Platform types: refused (the auth hook's platform guard answers 403 before the Repository's 404).
    expect([403, 404]).toContain(
      (await request('POST', 'ProjectMembership', maria, { resourceType: 'ProjectMembership' })).status,
    );
    const own = await request<Patient>('GET', maria.profile?.reference as string, maria);
    const updated = await request<Patient>('PUT', maria.profile?.reference as string, maria, {
      ...own.body,
      gender: 'female',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.meta?.author?.reference).toBe(maria.profile?.reference);
    // Whether she may change her own Observations is her policy's to say (the seeded demo policy's
    // business; policy-matrix.test.ts covers interactions); another patient's stay out of reach.
    const patch = [{ op: 'replace', path: '/status', value: 'amended' }];
    expect(
      (await request('PATCH', `Observation/${aishaObs.id}`, maria, patch, 'application/json-patch+json'))
        .status,
    ).toBe(404);
    expect(
      (await request('PUT', `Observation/${aishaObs.id}`, maria, { ...aishaObs, status: 'amended' })).status,
    ).toBe(404);
    expect((await request('DELETE', `Observation/${aishaObs.id}`, maria)).status).toBe(404);
    expect((await request('DELETE', `Observation/${aishaObs.id}`, otherAdmin)).status).toBe(404);
    const stillThere = await request<Observation>('GET', `Observation/${aishaObs.id}`, chen);
    expect(stillThere.body.status).toBe('final');
    // Dr Chen writes within the clinic, but not its memberships; the admin manages them.
    expect(
      (
        await request(
          'PATCH',
          `Observation/${aishaObs.id}`,
          chen,
          [{ op: 'add', path: '/issued', value: '2024-01-01T00:00:00Z' }],
          'application/json-patch+json',
        )
      ).status,
    ).toBe(200);
    const memberships = await request<Bundle>('GET', 'ProjectMembership?_count=50', admin);
    const listed = (memberships.body.entry ?? []).filter(
      (e) => e.resource?.resourceType === 'ProjectMembership',
    );
    expect(listed.length).toBeGreaterThanOrEqual(4);
    // Dr Chen gets no membership, as a list or one by one (refused: 403 by the platform guard or 404).
    for (const path of ['ProjectMembership?_count=50', `ProjectMembership/${listed[0].resource?.id}`]) {
      const response = await request<Bundle>('GET', path, chen);
      const found = (response.body.entry ?? []).filter(
        (e) => e.resource?.resourceType === 'ProjectMembership',
      );
      expect(found).toEqual([]);
      expect([path.includes('/') ? 404 : 200, 403]).toContain(response.status);
      expect(JSON.stringify(response.body)).not.toContain(listed[0].resource?.id);
    }
    expect((await request('GET', `ProjectMembership/${listed[0].resource?.id}`, otherAdmin)).status).toBe(
      404,
    );
  });

  test('SPEC §6 batch and transaction entries are checked like single requests', async () => {
    const batch = await request<Bundle>('POST', '', maria, {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'GET', url: `Observation/${mariaObs.id}` } },
        { request: { method: 'GET', url: `Observation/${aishaObs.id}` } },
        { request: { method: 'POST', url: 'Observation' }, resource: observationFor(aisha, 'batch') },
      ],
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry?.map((e) => e.response?.status)).toEqual(['200', '404', '403']);
    expect(JSON.stringify(batch.body)).not.toContain(AISHA_MARKER);
    const transaction = await request('POST', '', maria, {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { request: { method: 'POST', url: 'Observation' }, resource: observationFor(maria, 'tx') },
        { request: { method: 'GET', url: `Observation/${aishaObs.id}` } },
      ],
    });
    expect(transaction.status).toBe(404);
    expect(JSON.stringify(transaction.body)).not.toContain(AISHA_MARKER);
  });

  test('SPEC §7 anonymous, expired and foreign-signed callers are 401 Unauthenticated', async () => {
    const [, payload] = maria.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const [key] = (await findActiveJsonWebKeys(server.db)) as JsonWebKeyResource[];
    const serverKey = await importJWK({ kty: key.kty, crv: key.crv, x: key.x, y: key.y, d: key.d }, 'ES256');
    const expired = await new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .sign(serverKey);
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    expect((await exportJWK(privateKey)).d).toBeDefined();
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .sign(privateKey);
    for (const [label, token] of [
      ['anonymous', undefined],
      ['expired', expired],
      ['foreign', foreign],
    ] as const) {
      for (const path of [`Observation/${mariaObs.id}`, 'Observation']) {
        const response = await request('GET', path, token);
        expect({ label, path, status: response.status }).toEqual({ label, path, status: 401 });
        expect(outcomeText(response.body)).toBe('Unauthenticated');
      }
    }
    // The real token, still valid, still works.
    expect(
      (
        await getJson(`${server.fhirUrl}Observation/${mariaObs.id}`, {
          authorization: `Bearer ${maria.access_token}`,
        })
      ).status,
    ).toBe(200);
  });
});
