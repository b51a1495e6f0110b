// Bloom's platform client, used as the app uses it, against software we did not
// write: Medplum's own FHIR request router (@medplum/fhir-router 5.2.13 with its MemoryRepository),
// served over real HTTP on loopback by support/router-http-server.ts. Every FHIR call of SPEC §7 the
// router has: create, read, update, JSON patch, delete, search (params, _sort, _count, _offset),
// searchOne, searchResources, history and version reads, batch and transaction Bundles, If-None-Exist,
// conditional update (upsert) and $graphql; and SPEC §8 errors (the issues joined with '; ').
// Where the router answers otherwise than Bloom's server (and Medplum's server over Postgres), the
// test says so in its name and asserts what the router does.
import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import { BloomClient } from '../../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../../src/client/storage';
import { OperationOutcomeError } from '../../../src/fhir/outcomes';
import { startRouterHttpServer } from './support/router-http-server';
import type { RouterHttpServer, SeenRequest } from './support/router-http-server';

const TOKEN = 'conformance-token';
const FHIR = '/fhir/R4/';

let server: RouterHttpServer;
let client: BloomClient;
let profileLoad: unknown;

beforeAll(async () => {
  server = await startRouterHttpServer();
  client = new BloomClient({ baseUrl: server.baseUrl, storage: new PrefixedStorage(new MemoryStorage()) });
  // An access token as an app gets one after sign-in. setActiveLogin also loads the session from
  // auth/me, which the router (the FHIR API only) does not serve: that load fails, the token stays.
  profileLoad = await client.setActiveLogin({ accessToken: TOKEN }).catch((err: unknown) => err);
}, 60_000);

afterAll(async () => {
  client?.close();
  await server?.close();
});

/** The error a rejected call gave, for assertions on its type, message and outcome. */
async function failure(promise: Promise<unknown>): Promise<OperationOutcomeError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OperationOutcomeError) {
      return err;
    }
    throw err;
  }
  throw new Error('expected the call to be rejected');
}

function lastSeen(method: string, pathStart: string): SeenRequest {
  const hit = server.seen.filter((r) => r.method === method && r.url.startsWith(FHIR + pathStart)).at(-1);
  if (!hit) {
    throw new Error(`no ${method} ${FHIR}${pathStart} was sent`);
  }
  return hit;
}

function patient(family: string, given = 'Ada', extra: Partial<Patient> = {}): Patient {
  return { resourceType: 'Patient', name: [{ family, given: [given] }], ...extra };
}

describe("Bloom's client against Medplum's FHIR router over HTTP", () => {
  test('the access token goes with every FHIR call; auth/me is not the router’s (the session load fails with Not found)', async () => {
    expect(profileLoad).toBeInstanceOf(OperationOutcomeError);
    expect((profileLoad as Error).message).toBe('Not found');
    expect(server.seen.find((r) => r.url === '/auth/me')).toMatchObject({ method: 'GET' });
    await client.createResource(patient('Token'));
    expect(lastSeen('POST', 'Patient').authorization).toBe(`Bearer ${TOKEN}`);
    expect(client.getAccessToken()).toBe(TOKEN);
  });

  test('createResource: POST {type} as application/fhir+json; the router answers 201 with id, versionId, lastUpdated', async () => {
    const created = await client.createResource(patient('Create', 'Grace', { birthDate: '1990-01-02' }));
    expect(created).toMatchObject({
      resourceType: 'Patient',
      id: expect.any(String),
      birthDate: '1990-01-02',
      name: [{ family: 'Create', given: ['Grace'] }],
      meta: { versionId: expect.any(String), lastUpdated: expect.any(String) },
    });
    expect(lastSeen('POST', 'Patient')).toMatchObject({ status: 201 });
    expect(lastSeen('POST', 'Patient').contentType).toContain('application/fhir+json');
    // Stored by Medplum's repository, not merely echoed.
    await expect(server.repo.readResource('Patient', created.id as string)).resolves.toMatchObject({
      birthDate: '1990-01-02',
    });
  });

  test('readResource and readReference: GET {type}/{id} answers the stored resource', async () => {
    const created = await client.createResource(patient('Read'));
    const read = await client.readResource<Patient>('Patient', created.id as string);
    expect(read).toEqual(created);
    await expect(client.readReference<Patient>({ reference: `Patient/${created.id}` })).resolves.toEqual(
      created,
    );
    expect(lastSeen('GET', `Patient/${created.id}`)).toMatchObject({
      url: `${FHIR}Patient/${created.id}`,
      status: 200,
    });
  });

  test('updateResource: PUT {type}/{id} answers a new version; readVersion reads either version', async () => {
    const v1 = await client.createResource(patient('Update', 'First'));
    const v2 = await client.updateResource<Patient>({
      ...v1,
      name: [{ family: 'Update', given: ['Second'] }],
    });
    expect(v2.id).toBe(v1.id);
    expect(v2.meta?.versionId).not.toBe(v1.meta?.versionId);
    expect(v2.name?.[0]?.given).toEqual(['Second']);
    await expect(client.readResource('Patient', v1.id as string)).resolves.toEqual(v2);
    const old = await client.readVersion<Patient>('Patient', v1.id as string, v1.meta?.versionId as string);
    expect(old.name?.[0]?.given).toEqual(['First']);
    expect(old.meta?.versionId).toBe(v1.meta?.versionId);
    const missing = await failure(client.readVersion('Patient', v1.id as string, 'no-such-version'));
    expect(missing.message).toBe('Not found');
    expect(missing.outcome.issue?.[0]?.code).toBe('not-found');
  });

  test('patchResource: PATCH {type}/{id} with a JSON patch (application/json-patch+json) answers the patched version', async () => {
    const created = await client.createResource(patient('Patch', 'Before', { gender: 'female' }));
    const patched = await client.patchResource<Patient>('Patient', created.id as string, [
      { op: 'test', path: '/gender', value: 'female' },
      { op: 'replace', path: '/name/0/given', value: ['After'] },
      { op: 'add', path: '/birthDate', value: '1985-05-05' },
    ]);
    expect(patched).toMatchObject({ id: created.id, name: [{ given: ['After'] }], birthDate: '1985-05-05' });
    expect(patched.meta?.versionId).not.toBe(created.meta?.versionId);
    expect(lastSeen('PATCH', `Patient/${created.id}`).contentType).toContain('application/json-patch+json');
    // A failed 'test' operation: 400 and nothing changed.
    const failed = await failure(
      client.patchResource('Patient', created.id as string, [{ op: 'test', path: '/gender', value: 'male' }]),
    );
    expect(failed.outcome.issue?.[0]?.code).toBe('invalid');
    expect(failed.message).toBe('Test failed: female != male');
    expect(lastSeen('PATCH', `Patient/${created.id}`).status).toBe(400);
    await expect(client.readResource('Patient', created.id as string)).resolves.toEqual(patched);
  });

  test('deleteResource: DELETE {type}/{id} resolves; router difference: a read after it is 404 Not found (Bloom and Medplum’s server answer 410 Gone)', async () => {
    const created = await client.createResource(patient('Delete'));
    await expect(client.deleteResource('Patient', created.id as string)).resolves.toBeUndefined();
    expect(lastSeen('DELETE', `Patient/${created.id}`).status).toBe(200);
    const read = await failure(client.readResource('Patient', created.id as string));
    expect(read.message).toBe('Not found');
    expect(read.outcome.issue?.[0]?.code).toBe('not-found');
    expect(lastSeen('GET', `Patient/${created.id}`).status).toBe(404);
    // MemoryRepository keeps no tombstone: the history of a deleted resource is gone with it.
    const history = await failure(client.readHistory('Patient', created.id as string));
    expect(history.message).toBe('Not found');
    // Deleting again: the router answers 404 too.
    expect((await failure(client.deleteResource('Patient', created.id as string))).message).toBe('Not found');
  });

  describe('search', () => {
    const family = 'Searchfamily';
    const births = ['1991-01-01', '1993-03-03', '1995-05-05', '1992-02-02', '1994-04-04'];

    beforeAll(async () => {
      for (const [i, birthDate] of births.entries()) {
        await client.createResource(patient(family, `G${i}`, { birthDate }));
      }
      await client.createResource(patient('Otherfamily', 'Nope', { birthDate: '1990-06-06' }));
    });

    test('search with params, _sort, _count and _offset: the page the router answers, total of all matches; router difference: no link (no next)', async () => {
      const bundle = await client.search<Patient>('Patient', {
        family,
        _sort: '-birthdate',
        _count: 2,
        _offset: 1,
      });
      const sent = lastSeen('GET', 'Patient?').url;
      expect(sent).toContain('family=Searchfamily');
      expect(sent).toContain('_sort=-birthdate');
      expect(sent).toContain('_count=2');
      expect(sent).toContain('_offset=1');
      expect(bundle.resourceType).toBe('Bundle');
      expect(bundle.type).toBe('searchset');
      expect(bundle.total).toBe(5);
      expect(bundle.entry?.map((e) => e.resource?.birthDate)).toEqual(['1994-04-04', '1993-03-03']);
      expect(bundle.entry?.every((e) => e.search?.mode === 'match')).toBe(true);
      // Bloom's server (and Medplum's) add link: self and next; the router's bundles carry none,
      // and its entries no fullUrl.
      expect(bundle.link).toBeUndefined();
      expect(bundle.entry?.[0]?.fullUrl).toBeUndefined();
    });

    test('ascending _sort and a date prefix filter', async () => {
      const bundle = await client.search<Patient>('Patient', {
        family,
        birthdate: 'gt1992-06-01',
        _sort: 'birthdate',
      });
      expect(bundle.entry?.map((e) => e.resource?.birthDate)).toEqual([
        '1993-03-03',
        '1994-04-04',
        '1995-05-05',
      ]);
    });

    test('router difference: searchResourcePages stops after the first page (no next link to follow)', async () => {
      const pages: number[] = [];
      for await (const page of client.searchResourcePages<Patient>('Patient', { family, _count: 2 })) {
        pages.push(page.length);
      }
      expect(pages).toEqual([2]);
    });

    test('searchOne: sends _count=1 and answers the first match, or undefined', async () => {
      const first = await client.searchOne<Patient>('Patient', { family, _sort: 'birthdate' });
      expect(first?.birthDate).toBe('1991-01-01');
      expect(lastSeen('GET', 'Patient?').url).toContain('_count=1');
      await expect(client.searchOne('Patient', { family: 'Nobodyhere' })).resolves.toBeUndefined();
    });

    test('searchResources: the matches as an array carrying the Bundle', async () => {
      const found = await client.searchResources<Patient>('Patient', { family, _sort: '-birthdate' });
      expect(found.map((p) => p.birthDate)).toEqual([
        '1995-05-05',
        '1994-04-04',
        '1993-03-03',
        '1992-02-02',
        '1991-01-01',
      ]);
      expect(found.bundle.total).toBe(5);
      expect(found.bundle.type).toBe('searchset');
      // No match: the router leaves entry out; the client's array is empty.
      const none = await client.searchResources('Patient', { family: 'Nobodyhere' });
      expect(none).toHaveLength(0);
      expect(none.bundle.entry).toBeUndefined();
      expect(none.bundle.total).toBe(0);
    });

    test('a reference search parameter: Observation?subject=Patient/{id}', async () => {
      const subject = await client.createResource(patient('Observed'));
      const observation: Observation = {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }], text: 'Heart rate' },
        subject: { reference: `Patient/${subject.id}` },
        valueQuantity: { value: 72, unit: 'beats/minute' },
      };
      const created = await client.createResource(observation);
      await client.createResource({ ...observation, subject: { reference: 'Patient/someone-else' } });
      const found = await client.searchResources<Observation>('Observation', {
        subject: `Patient/${subject.id}`,
      });
      expect(found.map((o) => o.id)).toEqual([created.id]);
    });
  });

  test('readHistory: a history Bundle, newest first; router differences: entries carry only the resource, and the MemoryRepository reverses its stored list in place, so the next read answers oldest first', async () => {
    const v1 = await client.createResource(patient('History', 'One'));
    const v2 = await client.updateResource<Patient>({ ...v1, name: [{ family: 'History', given: ['Two'] }] });
    const v3 = await client.updateResource<Patient>({
      ...v2,
      name: [{ family: 'History', given: ['Three'] }],
    });
    const versions = [v3, v2, v1].map((v) => v.meta?.versionId);
    const history = await client.readHistory<Patient>('Patient', v1.id as string);
    expect(history.resourceType).toBe('Bundle');
    expect(history.type).toBe('history');
    expect(history.entry?.map((e) => e.resource?.meta?.versionId)).toEqual(versions);
    // Bloom's history entries have fullUrl, request and response (method, status); the router's not.
    expect(history.entry?.[0]).toEqual({ resource: v3 });
    const again = await client.readHistory<Patient>('Patient', v1.id as string);
    expect(again.entry?.map((e) => e.resource?.meta?.versionId)).toEqual([...versions].reverse());
  });

  test('executeBatch (batch): each entry answered on its own, with its status, location and resource', async () => {
    const existing = await client.createResource(patient('Batch', 'Existing'));
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'POST', url: 'Patient' }, resource: patient('Batch', 'New') },
        { request: { method: 'GET', url: `Patient/${existing.id}` } },
        { request: { method: 'GET', url: 'Patient/no-such-patient' } },
        { request: { method: 'GET', url: 'Patient?family=Batch&_sort=given' } },
      ],
    };
    const response = await client.executeBatch(bundle);
    expect(lastSeen('POST', '')).toMatchObject({ url: FHIR, status: 200 });
    expect(response.resourceType).toBe('Bundle');
    expect(response.type).toBe('batch-response');
    expect(response.entry?.map((e) => e.response?.status)).toEqual(['201', '200', '404', '200']);
    const created = response.entry?.[0]?.resource as Patient;
    expect(created).toMatchObject({
      resourceType: 'Patient',
      id: expect.any(String),
      name: [{ given: ['New'] }],
    });
    expect(response.entry?.[0]?.response?.location).toBe(`Patient/${created.id}`);
    expect(response.entry?.[1]?.resource).toEqual(existing);
    expect(response.entry?.[2]?.response?.outcome?.issue?.[0]?.code).toBe('not-found');
    const searched = response.entry?.[3]?.resource as Bundle<Patient>;
    expect(searched.type).toBe('searchset');
    expect(searched.total).toBe(2);
    await expect(client.readResource('Patient', created.id as string)).resolves.toEqual(created);
  });

  test('executeBatch (transaction): urn:uuid references are resolved to the ids the router assigns', async () => {
    const patientUrn = 'urn:uuid:3f3b1b1e-7a53-4c51-9d5e-2f1f3c2a6b10';
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: patientUrn,
          request: { method: 'POST', url: 'Patient' },
          resource: patient('Transaction', 'Mother'),
        },
        {
          request: { method: 'POST', url: 'Observation' },
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'Weight' },
            subject: { reference: patientUrn },
            valueQuantity: { value: 61, unit: 'kg' },
          },
        },
      ],
    };
    const response = await client.executeBatch(bundle);
    expect(response.type).toBe('transaction-response');
    expect(response.entry?.map((e) => e.response?.status)).toEqual(['201', '201']);
    const mother = response.entry?.[0]?.resource as Patient;
    const weight = response.entry?.[1]?.resource as Observation;
    expect(weight.subject?.reference).toBe(`Patient/${mother.id}`);
    await expect(client.readResource('Observation', weight.id as string)).resolves.toMatchObject({
      subject: { reference: `Patient/${mother.id}` },
    });
  });

  test('router difference: a failed transaction is answered with the failing entry’s outcome, but MemoryRepository does not roll back (Bloom’s server writes nothing)', async () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        { request: { method: 'POST', url: 'Patient' }, resource: patient('Rollback', 'Kept') },
        { request: { method: 'GET', url: 'Patient/no-such-patient' } },
      ],
    };
    const failed = await failure(client.executeBatch(bundle));
    expect(failed.message).toBe('Not found');
    expect(failed.outcome.issue?.[0]?.code).toBe('not-found');
    expect(lastSeen('POST', '')).toMatchObject({ url: FHIR, status: 404 });
    const left = await client.searchResources<Patient>('Patient', { family: 'Rollback' });
    expect(left.map((p) => p.name?.[0]?.given?.[0])).toEqual(['Kept']);
  });

  test('createResourceIfNoneExist: If-None-Exist creates once (201), then answers the match (200) without a duplicate', async () => {
    const identifier = [{ system: 'https://bloom.example/mrn', value: 'MRN-IF-NONE' }];
    const first = await client.createResourceIfNoneExist(patient('Ifnone', 'First', { identifier }), {
      identifier: 'https://bloom.example/mrn|MRN-IF-NONE',
    });
    expect(first).toMatchObject({ id: expect.any(String), name: [{ given: ['First'] }] });
    expect(lastSeen('POST', 'Patient')).toMatchObject({ status: 201 });
    const second = await client.createResourceIfNoneExist(patient('Ifnone', 'Second', { identifier }), {
      identifier: 'https://bloom.example/mrn|MRN-IF-NONE',
    });
    expect(second).toEqual(first);
    expect(lastSeen('POST', 'Patient')).toMatchObject({ status: 200 });
    const all = await client.searchResources<Patient>('Patient', { family: 'Ifnone' });
    expect(all).toHaveLength(1);
  });

  test('upsertResource: PUT {type}?{query} creates when nothing matches, then updates the match in place', async () => {
    const identifier = [{ system: 'https://bloom.example/mrn', value: 'MRN-UPSERT' }];
    const query = { identifier: 'https://bloom.example/mrn|MRN-UPSERT' };
    const created = await client.upsertResource(patient('Upsert', 'Created', { identifier }), query);
    expect(lastSeen('PUT', 'Patient?').url).toContain('identifier=');
    expect(created).toMatchObject({ id: expect.any(String), name: [{ given: ['Created'] }] });
    expect(lastSeen('PUT', 'Patient?').status).toBe(201);
    const updated = await client.upsertResource(patient('Upsert', 'Updated', { identifier }), query);
    expect(lastSeen('PUT', 'Patient?').status).toBe(200);
    expect(updated.id).toBe(created.id);
    expect(updated.meta?.versionId).not.toBe(created.meta?.versionId);
    expect(updated.name?.[0]?.given).toEqual(['Updated']);
    await expect(client.searchResources('Patient', { family: 'Upsert' })).resolves.toHaveLength(1);
  });

  test('graphql: POST $graphql runs read and list queries with variables', async () => {
    const created = await client.createResource(patient('Graphql', 'Query', { birthDate: '1988-08-08' }));
    const result = await client.graphql<{
      data: { Patient: { id: string; birthDate: string }; PatientList: { name: { given: string[] }[] }[] };
    }>(
      `query Both($id: ID!) {
        Patient(id: $id) { id birthDate }
        PatientList(family: "Graphql", _count: 5) { name { given } }
      }`,
      'Both',
      { id: created.id },
    );
    expect(lastSeen('POST', '$graphql').url).toBe(`${FHIR}$graphql`);
    expect(result).toEqual({
      data: {
        Patient: { id: created.id, birthDate: '1988-08-08' },
        PatientList: [{ name: [{ given: ['Query'] }] }],
      },
    });
  }, 60_000);

  test('graphql: a query naming unknown fields is answered 400, one issue per error, joined with "; "', async () => {
    const failed = await failure(client.graphql('{ PatientList { nope1 nope2 } }'));
    expect(lastSeen('POST', '$graphql').status).toBe(400);
    expect(failed.outcome.issue).toHaveLength(2);
    expect(failed.message).toBe(failed.outcome.issue?.map((i) => i.details?.text).join('; '));
    expect(failed.message).toContain('nope1');
    expect(failed.message).toContain('nope2');
  });

  test('errors (SPEC §8): a 404 read rejects with OperationOutcomeError, message "Not found", the router’s outcome attached', async () => {
    const failed = await failure(client.readResource('Patient', 'no-such-patient'));
    expect(failed).toBeInstanceOf(OperationOutcomeError);
    expect(failed.name).toBe('OperationOutcomeError');
    expect(lastSeen('GET', 'Patient/no-such-patient').status).toBe(404);
    expect(failed.message).toBe('Not found');
    expect(failed.outcome).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
    });
  });

  test('errors: a 400 from the router (resource type not matching the URL) carries its text', async () => {
    const failed = await failure(client.post(client.fhirUrl('Patient'), { resourceType: 'Observation' }));
    expect(failed.outcome.issue?.[0]?.code).toBe('invalid');
    expect(failed.message).toBe('Incorrect resource type: expected Patient, but found Observation');
    expect(lastSeen('POST', 'Patient').status).toBe(400);
  });
});
