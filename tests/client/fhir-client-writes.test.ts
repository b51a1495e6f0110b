// FHIR writes through BloomClient with a fake fetch (SPEC §5 'Missing resourceType',
// 'Missing id'; §7 FHIR calls): what each sends, the Idempotency-Key on POSTs, and what each write
// removes from the cache ("writes invalidate the resource and the searches of its type";
// "executeBatch and every write invalidate the cached searches they affect").
import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import type { BloomClient } from '../../src/client';
import type { FakeFetch } from './support/fake-fetch';
import { jsonResponse } from './support/fake-fetch';
import { FHIR, signedInClient } from './support/fhir-client-setup';

const maria: Patient = { resourceType: 'Patient', id: 'maria', name: [{ family: 'Garcia' }] };
const searchset = (resources: (Patient | Observation)[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource })),
});

/** A client with cached Patient and Observation reads and searches. */
async function warmClient(): Promise<{
  client: BloomClient;
  fake: FakeFetch;
  gets: (suffix: string) => number;
}> {
  const { client, fake } = signedInClient({ cacheTime: 60000 });
  fake.on('GET', '/Patient/maria/$everything', () => jsonResponse(searchset([maria])));
  fake.on('GET', '/Patient/maria', () => jsonResponse(maria));
  fake.on('GET', '/Patient', () => jsonResponse(searchset([maria])));
  fake.on('GET', '/Observation', () => jsonResponse(searchset([])));
  await client.readResource('Patient', 'maria');
  await client.search('Patient', { name: 'garcia' });
  await client.search('Observation', { subject: 'Patient/maria' });
  await client.readPatientEverything('maria');
  const gets = (suffix: string): number =>
    fake.calls.filter((c) => c.method === 'GET' && c.url.split('?')[0].endsWith(suffix)).length;
  return { client, fake, gets };
}

async function rereadAll(client: BloomClient): Promise<void> {
  await client.readResource('Patient', 'maria');
  await client.search('Patient', { name: 'garcia' });
  await client.search('Observation', { subject: 'Patient/maria' });
  await client.readPatientEverything('maria');
}

describe('createResource', () => {
  test("POSTs FHIR JSON with an Idempotency-Key; the new resource is cached; the type's searches and $everything are invalidated, other types' are not", async () => {
    const { client, fake, gets } = await warmClient();
    fake.on('POST', '/Patient', () => jsonResponse({ ...maria, id: 'new' }, 201));
    const created = await client.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family: 'New' }],
    });
    expect(created.id).toBe('new');
    const [post] = fake.callsTo('POST', '/Patient');
    expect(post.url).toBe(`${FHIR}Patient`);
    expect(post.headers['Content-Type']).toBe('application/fhir+json');
    expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(client.getCached('Patient', 'new')).toEqual(created);
    await rereadAll(client);
    expect(gets('/Patient/maria')).toBe(1);
    expect(gets('/Patient')).toBe(2);
    expect(gets('/Observation')).toBe(1);
    expect(gets('/$everything')).toBe(2);
  });

  test('two creates get different keys', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/Patient', () => jsonResponse(maria, 201));
    await client.createResource({ resourceType: 'Patient' });
    await client.createResource({ resourceType: 'Patient' });
    const keys = fake.callsTo('POST', '/Patient').map((c) => c.headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(2);
  });

  test("SPEC §5: 'Missing resourceType', nothing sent", async () => {
    const { client, fake } = signedInClient();
    await expect(client.createResource({} as Patient)).rejects.toThrow('Missing resourceType');
    expect(fake.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  test('createResourceIfNoneExist sends If-None-Exist with the query', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/Patient', () => jsonResponse(maria, 200));
    await client.createResourceIfNoneExist(maria, { identifier: 'http://x|1' });
    expect(fake.callsTo('POST', '/Patient')[0].headers['If-None-Exist']).toBe(
      'identifier=http%3A%2F%2Fx%7C1',
    );
  });
});

describe('updateResource, upsertResource, patchResource, deleteResource', () => {
  test("update PUTs {type}/{id}; SPEC §5 'Missing resourceType', 'Missing id'", async () => {
    const { client, fake, gets } = await warmClient();
    const updated = { ...maria, name: [{ family: 'Lopez' }] };
    fake.on('PUT', '/Patient/maria', () => jsonResponse(updated));
    await expect(client.updateResource({ resourceType: 'Patient' } as Patient)).rejects.toThrow('Missing id');
    await expect(client.updateResource({ id: 'x' } as Patient)).rejects.toThrow('Missing resourceType');
    expect(await client.updateResource(updated)).toEqual(updated);
    expect(fake.callsTo('PUT', '/Patient/maria')).toHaveLength(1);
    // The read now answers the updated resource from the cache; the searches are asked again.
    expect(client.getCached('Patient', 'maria')).toEqual(updated);
    await rereadAll(client);
    expect(gets('/Patient/maria')).toBe(1);
    expect(gets('/Patient')).toBe(2);
  });

  test('update answered 304 (nothing changed) returns the resource given', async () => {
    const { client, fake } = signedInClient();
    fake.on('PUT', '/Patient/maria', () => new Response(null, { status: 304 }));
    await expect(client.updateResource(maria)).resolves.toEqual(maria);
  });

  test('upsertResource PUTs {type}?{query} (conditional update)', async () => {
    const { client, fake } = signedInClient();
    fake.on('PUT', '/Patient', () => jsonResponse(maria, 201));
    await client.upsertResource(maria, { identifier: 'http://x|1' });
    expect(fake.callsTo('PUT', '/Patient')[0].url).toBe(`${FHIR}Patient?identifier=http%3A%2F%2Fx%7C1`);
  });

  test('patchResource sends a JSON Patch and invalidates the read and the searches', async () => {
    const { client, fake, gets } = await warmClient();
    fake.on('PATCH', '/Patient/maria', () => jsonResponse({ ...maria, gender: 'female' }));
    await client.patchResource('Patient', 'maria', [{ op: 'add', path: '/gender', value: 'female' }]);
    const [patch] = fake.callsTo('PATCH', '/Patient/maria');
    expect(patch.headers['Content-Type']).toBe('application/json-patch+json');
    expect(JSON.parse(patch.body as string)).toEqual([{ op: 'add', path: '/gender', value: 'female' }]);
    expect(client.getCached<Patient>('Patient', 'maria')?.gender).toBe('female');
    await rereadAll(client);
    expect(gets('/Patient')).toBe(2);
  });

  test('deleteResource DELETEs and forgets the read and the searches', async () => {
    const { client, fake, gets } = await warmClient();
    fake.on('DELETE', '/Patient/maria', () => new Response(null, { status: 204 }));
    await client.deleteResource('Patient', 'maria');
    expect(client.getCached('Patient', 'maria')).toBeUndefined();
    await rereadAll(client);
    expect(gets('/Patient/maria')).toBe(2);
    expect(gets('/Patient')).toBe(2);
    expect(gets('/Observation')).toBe(1);
  });

  test('validateResource POSTs {type}/$validate and returns the outcome', async () => {
    const { client, fake } = signedInClient();
    const ok = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'information', code: 'informational' }],
    };
    fake.on('POST', '/Patient/$validate', () => jsonResponse(ok));
    await expect(client.validateResource(maria)).resolves.toEqual(ok);
  });
});

describe('issue #5: executeBatch invalidates the cached searches it affects', () => {
  test('a batch writing Observations invalidates Observation searches and $everything, not the Patient ones', async () => {
    const { client, fake, gets } = await warmClient();
    fake.on('POST', '/fhir/R4/', () =>
      jsonResponse({ resourceType: 'Bundle', type: 'batch-response', entry: [] }),
    );
    await client.executeBatch({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        {
          request: { method: 'POST', url: 'Observation' },
          resource: { resourceType: 'Observation', status: 'final', code: {} },
        },
        { request: { method: 'GET', url: 'Patient/maria' } },
      ],
    });
    expect(fake.callsTo('POST', '/fhir/R4/')[0].headers['Idempotency-Key']).toEqual(expect.any(String));
    await rereadAll(client);
    expect(gets('/Observation')).toBe(2);
    expect(gets('/$everything')).toBe(2);
    expect(gets('/Patient')).toBe(1);
    expect(gets('/Patient/maria')).toBe(1);
  });

  test('a failed batch still invalidates (some entries may have been written)', async () => {
    const { client, fake, gets } = await warmClient();
    fake.on('POST', '/fhir/R4/', () => new Response('boom', { status: 400 }));
    await expect(
      client.executeBatch({
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [{ request: { method: 'DELETE', url: 'Patient/maria' } }],
      }),
    ).rejects.toThrow('boom');
    await rereadAll(client);
    expect(gets('/Patient/maria')).toBe(2);
    expect(gets('/Patient')).toBe(2);
  });
});
