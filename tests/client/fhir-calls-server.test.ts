// The platform client's FHIR and platform calls against the REAL server in-process (SPEC §4, §5,
// §7): the demo clinic seeded as `npm start` seeds it, sign-ins through BloomClient,
// then every call the server has, over HTTP, with no fakes between client and server (a wrapped
// fetch only loses a response on purpose, to show the Idempotency-Key retry). PGlite always,
// PostgreSQL too with TEST_DATABASE_URL.
import type { Bundle, GraphDefinition, Observation, Patient, StructureDefinition } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import type { BloomClientOptions } from '../../src/client';
import { MemoryStorage, PrefixedStorage } from '../../src/client/storage';
import { OperationOutcomeError, getStatus } from '../../src/fhir/outcomes';
import { Operator } from '../../src/fhir/search/types';
import { Repository, systemContext } from '../../src/server/repo';
import { findTestPort } from '../support/test-port';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';
import { signedInClient } from './support/server-sign-in';

describe.each(databases())('BloomClient FHIR calls against the real server on %s', (_engine, kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
  });

  afterAll(async () => {
    await server?.close();
  });

  const signIn = (email: string, options: BloomClientOptions = {}): Promise<BloomClient> =>
    signedInClient(server.baseUrl, email, options);

  const maria = (options?: BloomClientOptions) => signIn('maria@bloom.example', options);
  const admin = (options?: BloomClientOptions) => signIn('admin@bloom.example', options);

  function profileId(client: BloomClient): string {
    return client.getProfile()?.id as string;
  }

  function newObservation(patientId: string, value: number): Observation {
    return {
      resourceType: 'Observation',
      status: 'preliminary',
      subject: { reference: `Patient/${patientId}` },
      code: {
        coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }],
        text: 'Heart rate',
      },
      valueQuantity: { value, unit: 'beats/minute', system: 'http://unitsofmeasure.org', code: '/min' },
      effectiveDateTime: new Date().toISOString(),
    };
  }

  test('readResource / readReference / readHistory / readVersion: Maria reads her own record; another id is Not found', async () => {
    const client = await maria();
    const id = profileId(client);
    const patient = await client.readResource<Patient>('Patient', id);
    expect(patient.name?.[0]?.given).toEqual(['Maria']);
    await expect(client.readReference<Patient>({ reference: `Patient/${id}` })).resolves.toMatchObject({
      id,
    });
    const history = await client.readHistory('Patient', id);
    expect(history.type).toBe('history');
    const versionId = patient.meta?.versionId as string;
    await expect(client.readVersion('Patient', id, versionId)).resolves.toMatchObject({
      id,
      meta: { versionId },
    });
    const missing = client.readResource('Patient', '00000000-0000-4000-8000-000000000000');
    await expect(missing).rejects.toThrow('Not found');
    await expect(missing).rejects.toBeInstanceOf(OperationOutcomeError);
    await expect(client.readReference({ reference: 'Patient' })).rejects.toThrow('Invalid reference');
  });

  test('createResource → updateResource → patchResource → deleteResource (the clinic admin), with the cache in step (cacheTime 60 s)', async () => {
    const mariaId = profileId(await maria());
    const client = await admin({ cacheTime: 60000 });
    const created = await client.createResource(newObservation(mariaId, 72));
    expect(created).toMatchObject({
      resourceType: 'Observation',
      status: 'preliminary',
      meta: { versionId: expect.any(String) },
    });
    // The created resource is cached: no request needed to read it.
    expect(client.getCached('Observation', created.id as string)).toEqual(created);
    const search = () =>
      client.searchResources<Observation>('Observation', {
        subject: `Patient/${mariaId}`,
        code: '8867-4',
        _count: 100,
      });
    const cachedSearch = search();
    await cachedSearch;
    expect(search()).toBe(cachedSearch);
    const updated = await client.updateResource({
      ...created,
      valueQuantity: { ...created.valueQuantity, value: 75 },
    });
    expect(updated.valueQuantity?.value).toBe(75);
    expect(updated.meta?.versionId).not.toBe(created.meta?.versionId);
    // The update invalidated the searches of its type: asked again, and the new value is in it.
    const afterUpdate = search();
    expect(afterUpdate).not.toBe(cachedSearch);
    expect((await afterUpdate).find((o) => o.id === created.id)?.valueQuantity?.value).toBe(75);
    const patched = await client.patchResource<Observation>('Observation', created.id as string, [
      { op: 'replace', path: '/status', value: 'final' },
    ]);
    expect(patched.status).toBe('final');
    expect((await client.readResource<Observation>('Observation', created.id as string)).status).toBe(
      'final',
    );
    await client.deleteResource('Observation', created.id as string);
    await expect(client.readResource('Observation', created.id as string)).rejects.toThrow(
      OperationOutcomeError,
    );
    expect((await search()).map((o) => o.id)).not.toContain(created.id);
  });

  test('createResourceIfNoneExist (If-None-Exist): the second call returns the first resource, nothing new is made', async () => {
    const client = await admin();
    const mariaId = profileId(await maria());
    const system = 'https://bloom.example/fhir/client-test';
    const value = Math.random().toString(36).slice(2);
    const observation = { ...newObservation(mariaId, 66), identifier: [{ system, value }] };
    const first = await client.createResourceIfNoneExist(observation, { identifier: `${system}|${value}` });
    const second = await client.createResourceIfNoneExist(observation, { identifier: `${system}|${value}` });
    expect(second.id).toBe(first.id);
    const matches = await client.searchResources('Observation', { identifier: `${system}|${value}` });
    expect(matches.map((o) => o.id)).toEqual([first.id]);
  });

  test("SPEC §8 'Request aborted' over real HTTP: an aborted read rejects, the client keeps working", async () => {
    const client = await maria();
    const id = profileId(client);
    const controller = new AbortController();
    const read = client.readPatientEverything(id, { signal: controller.signal });
    controller.abort();
    await expect(read).rejects.toThrow('Request aborted');
    await expect(client.readResource('Patient', id)).resolves.toMatchObject({ id });
  });

  test('SPEC §4 offline: nothing listening at the address → the GET backs off, offline is emitted once, the network error comes back', async () => {
    const port = await findTestPort('localhost');
    const client = new BloomClient({
      baseUrl: `http://localhost:${port}/`,
      storage: new PrefixedStorage(new MemoryStorage()),
    });
    const offline = jest.fn();
    client.addEventListener('offline', offline);
    const started = Date.now();
    // Node's fetch says 'fetch failed' where browsers say 'Failed to fetch'.
    await expect(client.readResource('Patient', 'x')).rejects.toThrow('fetch failed');
    // Two waits, 200 ms then 400 ms, between the three attempts.
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(offline).toHaveBeenCalledTimes(1);
  });

  test("SPEC §5 client checks before any request: 'Missing resourceType', 'Missing id'", async () => {
    const client = await maria();
    await expect(client.createResource({} as Observation)).rejects.toThrow('Missing resourceType');
    await expect(client.updateResource({ resourceType: 'Observation' } as Observation)).rejects.toThrow(
      'Missing id',
    );
  });

  test('the server refuses what a patient may not write: a 403 outcome as OperationOutcomeError', async () => {
    const client = await maria();
    const refused = await client
      .createResource({ resourceType: 'Practitioner', name: [{ family: 'X' }] })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OperationOutcomeError);
    expect(getStatus((refused as OperationOutcomeError).outcome)).toBe(403);
  });

  test('issue #5: a POST whose response is lost is retried with the same Idempotency-Key and creates ONE resource', async () => {
    let lost = 0;
    const keys: string[] = [];
    const lossyFetch = async (input: string, init?: RequestInit): Promise<Response> => {
      const response = await fetch(input, init);
      if (init?.method === 'POST' && input.endsWith('/fhir/R4/Observation')) {
        keys.push((init.headers as Record<string, string>)['Idempotency-Key']);
        if (lost === 0) {
          lost++;
          await response.arrayBuffer();
          throw new TypeError('Failed to fetch');
        }
      }
      return response;
    };
    const client = await maria({ fetch: lossyFetch });
    const id = profileId(client);
    const marker = 1000 + Math.floor(Math.random() * 1000);
    const created = await client.createResource(newObservation(id, marker));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    const matches = await client.searchResources<Observation>('Observation', {
      subject: `Patient/${id}`,
      'value-quantity': String(marker),
      _count: 100,
    });
    expect(matches.map((o) => o.id)).toEqual([created.id]);
  });

  test('an Idempotency-Key sent twice by hand gets the first answer again (server replay)', async () => {
    const client = await maria();
    const id = profileId(client);
    const key = `client-test-${Math.random().toString(36).slice(2)}`;
    const body = newObservation(id, 61);
    const first = await client.post<Observation>(
      client.fhirUrl('Observation'),
      body,
      'application/fhir+json',
      { idempotencyKey: key },
    );
    const second = await client.post<Observation>(
      client.fhirUrl('Observation'),
      body,
      'application/fhir+json',
      { idempotencyKey: key },
    );
    expect(second.id).toBe(first.id);
  });

  test('search with a SearchRequest (SPEC §7 URL building), searchOne, searchResources and searchResourcePages over next links', async () => {
    const client = await maria();
    const id = profileId(client);
    const bundle = await client.search<Observation>({
      resourceType: 'Observation',
      filters: [
        { code: 'subject', operator: Operator.EQUALS, value: `Patient/${id}` },
        { code: 'code', operator: Operator.EQUALS, value: '29463-7' },
      ],
      sortRules: [{ code: 'date', descending: true }],
      count: 5,
      total: 'accurate',
    });
    expect(bundle.type).toBe('searchset');
    expect(bundle.total).toBeGreaterThan(5);
    const dates = (bundle.entry ?? []).map((e) => (e.resource as Observation).effectiveDateTime as string);
    expect(dates).toHaveLength(5);
    expect([...dates].sort().reverse()).toEqual(dates);

    const one = await client.searchOne<Observation>('Observation', {
      subject: `Patient/${id}`,
      code: '29463-7',
    });
    expect(one?.resourceType).toBe('Observation');
    await expect(
      client.searchOne('Observation', { subject: `Patient/${id}`, code: 'no-such-code' }),
    ).resolves.toBeUndefined();

    const pages: number[] = [];
    const seen = new Set<string>();
    for await (const page of client.searchResourcePages<Observation>('Observation', {
      subject: `Patient/${id}`,
      code: '29463-7',
      _count: 7,
    })) {
      pages.push(page.length);
      page.forEach((o) => seen.add(o.id as string));
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(seen.size).toBe(pages.reduce((a, b) => a + b, 0));
    expect(seen.size).toBe(bundle.total);
  });

  test('executeBatch: a batch and a transaction; a failed batch entry is reported in its own entry', async () => {
    const client = await maria();
    const id = profileId(client);
    const result = await client.executeBatch({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'GET', url: `Patient/${id}` } },
        { request: { method: 'POST', url: 'Observation' }, resource: newObservation(id, 80) },
        { request: { method: 'GET', url: 'Patient/00000000-0000-4000-8000-000000000000' } },
      ],
    });
    expect(result.type).toBe('batch-response');
    expect(result.entry?.map((e) => e.response?.status?.slice(0, 3))).toEqual(['200', '201', '404']);
    const tx = await client.executeBatch({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:4c5c8a52-8a3e-4d5b-9f3e-111111111111',
          request: { method: 'POST', url: 'Observation' },
          resource: newObservation(id, 81),
        },
      ],
    });
    expect(tx.type).toBe('transaction-response');
  });

  test('SPEC §3 autoBatchTime: readReference calls in one tick go out as one batch; a missing one rejects alone', async () => {
    const posts: string[] = [];
    const countingFetch = (input: string, init?: RequestInit): Promise<Response> => {
      if (input.includes('/fhir/R4/')) {
        posts.push(`${init?.method ?? 'GET'} ${input.slice(server.fhirUrl.length)}`);
      }
      return fetch(input, init);
    };
    const client = await maria({ autoBatchTime: 20, fetch: countingFetch });
    const id = profileId(client);
    const observations = await client.searchResources<Observation>('Observation', {
      subject: `Patient/${id}`,
      _count: 10,
    });
    posts.length = 0;
    const reads = [
      ...observations.map((o) => client.readReference({ reference: `Observation/${o.id}` })),
      client.readReference({ reference: 'Observation/00000000-0000-4000-8000-000000000000' }),
    ];
    const results = await Promise.allSettled(reads);
    expect(posts).toEqual(['POST ']);
    expect(results.slice(0, -1).every((r) => r.status === 'fulfilled')).toBe(true);
    expect(results.slice(0, -1).map((r) => (r as PromiseFulfilledResult<Observation>).value.id)).toEqual(
      observations.map((o) => o.id),
    );
    const last = results[results.length - 1] as PromiseRejectedResult;
    expect(last.status).toBe('rejected');
    expect(last.reason).toBeInstanceOf(OperationOutcomeError);
    expect(last.reason.message).toBe('Not found');
  });

  test('validateResource: $validate answers an outcome; an invalid resource is a 400 with the issue', async () => {
    const client = await maria();
    const ok = await client.validateResource(newObservation(profileId(client), 70));
    expect(ok.resourceType).toBe('OperationOutcome');
    await expect(
      client.validateResource({
        resourceType: 'Observation',
        status: 'not-a-status',
        code: {},
      } as unknown as Observation),
    ).rejects.toBeInstanceOf(OperationOutcomeError);
  });

  test('readPatientEverything: the Patient first, then her compartment', async () => {
    const client = await maria();
    const id = profileId(client);
    const bundle: Bundle = await client.readPatientEverything(id);
    expect(bundle.entry?.[0]?.resource).toMatchObject({ resourceType: 'Patient', id });
    const types = new Set((bundle.entry ?? []).map((e) => e.resource?.resourceType));
    expect(types.has('Observation')).toBe(true);
  });

  test('valueSetExpand: administrative-gender filtered by text', async () => {
    const client = await maria();
    const expansion = await client.valueSetExpand({
      url: 'http://hl7.org/fhir/ValueSet/administrative-gender',
      filter: 'fem',
    });
    expect(expansion.expansion?.contains?.map((c) => c.code)).toEqual(['female']);
    await expect(
      client.valueSetExpand({ url: 'http://example.org/no-such-value-set' }),
    ).rejects.toBeInstanceOf(OperationOutcomeError);
  });

  test('graphql and readResourceGraph ($graph over a stored GraphDefinition)', async () => {
    const client = await admin();
    const mariaClient = await maria();
    const mariaId = profileId(mariaClient);
    const result = await client.graphql<{ data: { Patient: { id: string; name: { given: string[] }[] } } }>(
      'query One($id: ID!) { Patient(id: $id) { id name { given } } }',
      'One',
      { id: mariaId },
    );
    expect(result.data.Patient).toEqual({
      id: mariaId,
      name: [expect.objectContaining({ given: ['Maria'] })],
    });
    const graphName = `patient-observations-${Math.random().toString(36).slice(2)}`;
    await client.createResource<GraphDefinition>({
      resourceType: 'GraphDefinition',
      name: graphName,
      status: 'active',
      start: 'Patient',
      link: [{ target: [{ type: 'Observation', params: 'subject={ref}' }] }],
    });
    const graph = await client.readResourceGraph('Patient', mariaId, graphName);
    expect(graph.entry?.[0]?.resource).toMatchObject({ resourceType: 'Patient', id: mariaId });
    expect(graph.entry?.some((e) => e.resource?.resourceType === 'Observation')).toBe(true);
  });

  test('keyValue.set/get/delete per user: Maria does not see the admin value', async () => {
    const mariaClient = await maria();
    const adminClient = await admin();
    await expect(mariaClient.keyValue.get('client-test-theme')).resolves.toBeUndefined();
    await mariaClient.keyValue.set('client-test-theme', 'violet');
    await adminClient.keyValue.set('client-test-theme', 'grey');
    await expect(mariaClient.keyValue.get('client-test-theme')).resolves.toBe('violet');
    await expect(adminClient.keyValue.get('client-test-theme')).resolves.toBe('grey');
    await mariaClient.keyValue.delete('client-test-theme');
    await expect(mariaClient.keyValue.get('client-test-theme')).resolves.toBeUndefined();
    await expect(adminClient.keyValue.get('client-test-theme')).resolves.toBe('grey');
  });

  test('invite and sendEmail: the admin may, a patient is refused (403)', async () => {
    const adminClient = await admin();
    const projectId = adminClient.getProject()?.id as string;
    const email = `invited.${Math.random().toString(36).slice(2)}@example.org`;
    const membership = await adminClient.invite(projectId, {
      resourceType: 'Patient',
      firstName: 'Ines',
      lastName: 'Invited',
      email,
    });
    expect(membership).toMatchObject({
      resourceType: 'ProjectMembership',
      profile: { reference: expect.stringMatching(/^Patient\//) },
    });
    await expect(
      adminClient.sendEmail({ to: email, subject: 'Welcome', text: 'Hello from Bloom' }),
    ).resolves.toBeDefined();

    const mariaClient = await maria();
    const refused = mariaClient.invite(projectId, {
      resourceType: 'Patient',
      firstName: 'X',
      lastName: 'Y',
      email: 'x@example.org',
    });
    await expect(refused).rejects.toBeInstanceOf(OperationOutcomeError);
    await expect(mariaClient.sendEmail({ to: email, subject: 'Hi', text: 'x' })).rejects.toBeInstanceOf(
      OperationOutcomeError,
    );
  });
  test('schema loading: requestSchema through GraphQL StructureDefinitionList/SearchParameterList and requestProfileSchema by URL, for a profile stored by the admin', async () => {
    const client = await admin();
    const suffix = Math.random().toString(36).slice(2, 8);
    const name = `BloomPregnancyPatient${suffix}`;
    const url = `https://bloom.example/fhir/StructureDefinition/pregnancy-patient-${suffix}`;
    await client.createResource<StructureDefinition>({
      resourceType: 'StructureDefinition',
      name,
      url,
      status: 'active',
      kind: 'resource',
      abstract: false,
      type: 'Patient',
      baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Patient',
      derivation: 'constraint',
      snapshot: {
        element: [
          { id: 'Patient', path: 'Patient', definition: 'A patient in pregnancy care' },
          { id: 'Patient.birthDate', path: 'Patient.birthDate', min: 1, max: '1', type: [{ code: 'date' }] },
        ],
      },
    });
    const byName = await client.requestSchema(name);
    expect(byName).toMatchObject({ name, url, description: 'A patient in pregnancy care' });
    expect(byName.elements.birthDate).toMatchObject({ min: 1, max: '1' });
    const fresh = await admin();
    await expect(fresh.requestProfileSchema(url)).resolves.toMatchObject({ name, url });
    await expect(fresh.requestProfileSchema(`${url}-missing`)).rejects.toThrow(
      `Unknown data type: ${url}-missing`,
    );
  });
});
