// The server gaps the platform client found, closed and tested through the REAL client
// against the real server in-process: POST $expand-profile (SPEC §7 requestProfileSchema),
// conditional update (upsertResource), and the base FHIR definitions behind requestSchema (SPEC §7
// schema load; readable by every signed-in user, written by super admins only). PGlite always,
// PostgreSQL too with TEST_DATABASE_URL.
import type { Patient, SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { getStatus, OperationOutcomeError } from '../../src/fhir/outcomes';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';
import { signedInClient } from './support/server-sign-in';

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 0;
  } catch (err) {
    if (err instanceof OperationOutcomeError) {
      return getStatus(err.outcome);
    }
    throw err;
  }
}

describe.each(databases())('BloomClient against the server gaps closed on %s', (_engine, kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
  });

  afterAll(async () => {
    await server?.close();
  });

  const signIn = (email: string): Promise<BloomClient> => signedInClient(server.baseUrl, email);

  test('SPEC §7 requestProfileSchema with expandProfile POSTs $expand-profile and loads the profile', async () => {
    const client = await signIn('dr.chen@bloom.example');
    const schema = await client.requestProfileSchema('http://hl7.org/fhir/StructureDefinition/bp', {
      expandProfile: true,
    });
    expect(schema.url).toBe('http://hl7.org/fhir/StructureDefinition/bp');
    expect(Object.keys(schema.elements)).toContain('component');
  });

  test('POST $expand-profile over HTTP: same Bundle as GET, body ignored, missing url still 400', async () => {
    const client = await signIn('dr.chen@bloom.example');
    const url = `${server.baseUrl}fhir/R4/StructureDefinition/$expand-profile`;
    const headers = {
      authorization: `Bearer ${client.getAccessToken()}`,
      'content-type': 'application/fhir+json',
    };
    const query = `?url=${encodeURIComponent('http://hl7.org/fhir/StructureDefinition/bp')}`;
    const posted = await fetch(url + query, { method: 'POST', headers, body: '{}' });
    const got = await fetch(url + query, { headers: { authorization: headers.authorization } });
    expect(posted.status).toBe(200);
    const [a, b] = [
      (await posted.json()) as { entry: unknown[] },
      (await got.json()) as { entry: unknown[] },
    ];
    expect(a.entry).toEqual(b.entry);
    expect((await fetch(url, { method: 'POST', headers, body: '{}' })).status).toBe(400);
    expect((await fetch(url + query, { method: 'POST', body: '{}' })).status).toBe(401);
  });

  test('SPEC §7 upsertResource: creates on no match, then updates the same resource', async () => {
    const client = await signIn('dr.chen@bloom.example');
    const identifier = { system: 'https://bloom.example/upsert', value: `u-${Date.now()}` };
    const query = { identifier: `${identifier.system}|${identifier.value}` };
    const first = await client.upsertResource<Patient>(
      { resourceType: 'Patient', identifier: [identifier], name: [{ family: 'Upsert' }] },
      query,
    );
    const second = await client.upsertResource<Patient>(
      { resourceType: 'Patient', identifier: [identifier], name: [{ family: 'Upserted' }] },
      query,
    );
    expect(second.id).toBe(first.id);
    expect(second.name?.[0].family).toBe('Upserted');
    const found = await client.searchResources<Patient>('Patient', query, { cache: 'no-cache' });
    expect(found.map((p) => p.id)).toEqual([first.id]);
  });

  test.each(['Patient', 'Observation'])(
    'SPEC §7 requestSchema(%s) loads the base definition for a practitioner and a patient',
    async (type) => {
      for (const email of ['dr.chen@bloom.example', 'maria@bloom.example']) {
        const client = await signIn(email);
        const schema = await client.requestSchema(type);
        expect(schema.name).toBe(type);
        expect(schema.url).toBe(`http://hl7.org/fhir/StructureDefinition/${type}`);
        expect(schema.kind).toBe('resource');
        expect(Object.keys(schema.elements)).toContain(type === 'Patient' ? 'birthDate' : 'value[x]');
      }
    },
  );

  test('requestSchema of an unknown type still says Unknown data type (SPEC §8)', async () => {
    const client = await signIn('maria@bloom.example');
    await expect(client.requestSchema('NoSuchType')).rejects.toThrow('Unknown data type: NoSuchType');
  });

  test('SPEC §6 base definitions are read-only: a patient and a practitioner cannot change them', async () => {
    const maria = await signIn('maria@bloom.example');
    const base = (await maria.readResource('StructureDefinition', 'Patient')) as StructureDefinition;
    expect(base.url).toBe('http://hl7.org/fhir/StructureDefinition/Patient');
    const changed: StructureDefinition = { ...base, description: 'changed' };
    expect(await statusOf(maria.updateResource(changed))).toBeGreaterThanOrEqual(400);
    expect(await statusOf(maria.deleteResource('StructureDefinition', 'Patient'))).toBeGreaterThanOrEqual(
      400,
    );
    const chen = await signIn('dr.chen@bloom.example');
    expect(await statusOf(chen.updateResource(changed))).toBe(403);
    const param = (await chen.readResource('SearchParameter', 'individual-birthdate')) as SearchParameter;
    expect(await statusOf(chen.updateResource({ ...param, description: 'changed' }))).toBe(403);
    const after = await signIn('admin@bloom.example');
    expect(
      (
        (await after.readResource('StructureDefinition', 'Patient', {
          cache: 'no-cache',
        })) as StructureDefinition
      ).description,
    ).toBe(base.description);
  });
});
