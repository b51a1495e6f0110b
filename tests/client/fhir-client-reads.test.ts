// FHIR reads and searches through BloomClient with a fake fetch (SPEC §4 cache and
// readable promises, §5 reference messages, §7 FHIR calls and search URL building, §9 cache).
import type { Bundle, Patient } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { Operator } from '../../src/fhir/search/types';
import { jsonResponse } from './support/fake-fetch';
import { FHIR, signedInClient } from './support/fhir-client-setup';

const maria: Patient = { resourceType: 'Patient', id: 'maria', name: [{ family: 'Garcia' }] };

function searchBundle(...patients: Patient[]): Bundle<Patient> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: patients.map((resource) => ({ resource, search: { mode: 'match' as const } })),
  };
}

describe('reads (SPEC §7) and the cache (SPEC §4, §9)', () => {
  test('readResource GETs {type}/{id} with the token; a second read within cacheTime is a cache hit, readable at once', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    fake.on('GET', '/Patient/maria', () => jsonResponse(maria));
    const first = client.readResource('Patient', 'maria');
    expect(first.getStatus()).toBe('pending');
    await expect(first).resolves.toEqual(maria);
    const second = client.readResource('Patient', 'maria');
    expect(second.getStatus()).toBe('success');
    expect(second.read()).toEqual(maria);
    expect(client.getCached('Patient', 'maria')).toEqual(maria);
    expect(client.getCachedReference({ reference: 'Patient/maria' })).toEqual(maria);
    const calls = fake.callsTo('GET', '/Patient/maria');
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`${FHIR}Patient/maria`);
    expect(calls[0].headers.Authorization).toMatch(/^Bearer /);
  });

  test('cacheTime 0 (the Node default): every read goes to the server', async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/Patient/maria', () => jsonResponse(maria));
    await client.readResource('Patient', 'maria');
    await client.readResource('Patient', 'maria');
    expect(fake.callsTo('GET', '/Patient/maria')).toHaveLength(2);
    expect(client.getCached('Patient', 'maria')).toBeUndefined();
  });

  test("cache 'no-cache' skips the cache; 'reload' refreshes it", async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    let family = 'Garcia';
    fake.on('GET', '/Patient/maria', () => jsonResponse({ ...maria, name: [{ family }] }));
    await client.readResource('Patient', 'maria');
    family = 'Lopez';
    expect(await client.readResource('Patient', 'maria', { cache: 'no-cache' })).toMatchObject({
      name: [{ family: 'Lopez' }],
    });
    expect(client.getCached<Patient>('Patient', 'maria')?.name?.[0]?.family).toBe('Garcia');
    await client.readResource('Patient', 'maria', { cache: 'reload' });
    expect(client.getCached<Patient>('Patient', 'maria')?.name?.[0]?.family).toBe('Lopez');
  });

  test('issue #5: an error response is never cached; the next read asks again', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    let status = 404;
    fake.on('GET', '/Patient/maria', () =>
      status === 404 ? new Response('no', { status }) : jsonResponse(maria),
    );
    const failed = client.readResource('Patient', 'maria');
    await expect(failed).rejects.toThrow('Not found');
    expect(failed.getStatus()).toBe('error');
    expect(() => failed.read()).toThrow(OperationOutcomeError);
    status = 200;
    await expect(client.readResource('Patient', 'maria')).resolves.toEqual(maria);
    expect(fake.callsTo('GET', '/Patient/maria')).toHaveLength(2);
  });

  test('invalidateAll and invalidateUrl forget cached reads', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    fake.on('GET', '/Patient/maria', () => jsonResponse(maria));
    await client.readResource('Patient', 'maria');
    client.invalidateUrl(`${FHIR}Patient/maria`);
    await client.readResource('Patient', 'maria');
    client.invalidateAll();
    await client.readResource('Patient', 'maria');
    expect(fake.callsTo('GET', '/Patient/maria')).toHaveLength(3);
  });

  test("SPEC §5 readReference: 'Missing reference', 'Invalid reference'; SPEC §3 'system' is the system Device, no request", async () => {
    const { client, fake } = signedInClient();
    await expect(client.readReference({})).rejects.toThrow('Missing reference');
    await expect(client.readReference({ reference: 'not a reference' })).rejects.toThrow('Invalid reference');
    const system = client.readReference({ reference: 'system' });
    expect(system.read()).toMatchObject({ resourceType: 'Device', id: 'system' });
    fake.on('GET', '/Patient/maria', () => jsonResponse(maria));
    await expect(client.readReference({ reference: 'Patient/maria' })).resolves.toEqual(maria);
    expect(fake.calls.filter((c) => c.url.startsWith(FHIR))).toHaveLength(1);
  });

  test("readResource without a type or id: 'Missing resourceType' / 'Missing id', nothing sent", async () => {
    const { client, fake } = signedInClient();
    await expect(client.readResource('' as 'Patient', 'x')).rejects.toThrow('Missing resourceType');
    await expect(client.readResource('Patient', '')).rejects.toThrow('Missing id');
    expect(fake.calls.filter((c) => c.url.startsWith(FHIR))).toHaveLength(0);
  });

  test('readHistory, readVersion, readPatientEverything, readResourceGraph, valueSetExpand: their URLs', async () => {
    const { client, fake } = signedInClient();
    const bundle = { resourceType: 'Bundle', type: 'history' };
    fake.on('GET', '/Patient/maria/_history', () => jsonResponse(bundle));
    fake.on('GET', '/Patient/maria/_history/2', () => jsonResponse({ ...maria, meta: { versionId: '2' } }));
    fake.on('GET', '/Patient/maria/$everything', () =>
      jsonResponse({ resourceType: 'Bundle', type: 'searchset' }),
    );
    fake.on('GET', '/Patient/maria/$graph', () =>
      jsonResponse({ resourceType: 'Bundle', type: 'collection' }),
    );
    fake.on('GET', '/ValueSet/$expand', () => jsonResponse({ resourceType: 'ValueSet', status: 'active' }));
    await expect(client.readHistory('Patient', 'maria')).resolves.toEqual(bundle);
    await expect(client.readVersion('Patient', 'maria', '2')).resolves.toMatchObject({
      meta: { versionId: '2' },
    });
    await expect(client.readPatientEverything('maria')).resolves.toMatchObject({ type: 'searchset' });
    await expect(client.readResourceGraph('Patient', 'maria', 'patient-everything')).resolves.toMatchObject({
      type: 'collection',
    });
    await expect(
      client.valueSetExpand({ url: 'http://hl7.org/fhir/ValueSet/administrative-gender', filter: 'fem' }),
    ).resolves.toMatchObject({ resourceType: 'ValueSet' });
    expect(fake.calls.filter((c) => c.url.startsWith(FHIR)).map((c) => c.url.slice(FHIR.length))).toEqual([
      'Patient/maria/_history',
      'Patient/maria/_history/2',
      'Patient/maria/$everything',
      'Patient/maria/$graph?graph=patient-everything',
      'ValueSet/$expand?url=http%3A%2F%2Fhl7.org%2Ffhir%2FValueSet%2Fadministrative-gender&filter=fem',
    ]);
  });
});

describe('search (SPEC §7)', () => {
  test('a SearchRequest is built as SPEC §7 says: sorted parameters, _sort with -, _count, _offset, _total, _fields, _include, _revinclude', async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/Observation', () => jsonResponse(searchBundle()));
    await client.search({
      resourceType: 'Observation',
      filters: [{ code: 'subject', operator: Operator.EQUALS, value: 'Patient/maria' }],
      sortRules: [{ code: 'date', descending: true }],
      count: 20,
      offset: 40,
      total: 'accurate',
      fields: ['id', '_lastUpdated'],
      include: [{ resourceType: 'Observation', searchParam: 'performer' }],
      revInclude: [{ resourceType: 'Provenance', searchParam: 'target' }],
    });
    const url = fake.callsTo('GET', '/Observation')[0].url;
    expect(url).toBe(
      `${FHIR}Observation?_count=20&_fields=id,_lastUpdated&_include=Observation:performer&_offset=40` +
        '&_revinclude=Provenance:target&_sort=-date&_total=accurate&subject=Patient/maria',
    );
  });

  test('plain queries (record, string, URLSearchParams) keep their order; arrays repeat; undefined is left out', async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/Patient', () => jsonResponse(searchBundle()));
    await client.search('Patient', { name: 'maria', _count: 5, gender: undefined, _tag: ['a', 'b'] });
    await client.search('Patient', '?name=aisha');
    await client.search('Patient', new URLSearchParams({ birthdate: 'ge2000-01-01' }));
    await client.search('Patient');
    expect(fake.callsTo('GET', '/Patient').map((c) => c.url.slice(FHIR.length))).toEqual([
      'Patient?name=maria&_count=5&_tag=a&_tag=b',
      'Patient?name=aisha',
      'Patient?birthdate=ge2000-01-01',
      'Patient',
    ]);
  });

  test('searchOne asks for _count=1 and returns the first match or undefined', async () => {
    const { client, fake } = signedInClient();
    let bundle = searchBundle(maria);
    fake.on('GET', '/Patient', () => jsonResponse(bundle));
    await expect(client.searchOne('Patient', { name: 'maria' })).resolves.toEqual(maria);
    expect(fake.callsTo('GET', '/Patient')[0].url).toBe(`${FHIR}Patient?name=maria&_count=1`);
    bundle = searchBundle();
    await expect(client.searchOne('Patient', { name: 'nobody' })).resolves.toBeUndefined();
  });

  test('searchResources: the matches (not _include entries) as an array carrying its bundle; matches are cached as reads', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    const bundle: Bundle = {
      ...searchBundle(maria),
      entry: [
        { resource: maria, search: { mode: 'match' } },
        { resource: { resourceType: 'Practitioner', id: 'chen' }, search: { mode: 'include' } },
      ],
    };
    fake.on('GET', '/Patient', () => jsonResponse(bundle));
    const result = await client.searchResources('Patient', { name: 'maria' });
    expect([...result]).toEqual([maria]);
    expect(result.bundle).toEqual(bundle);
    // Synchronously readable the second time, and the match is cached as its read.
    expect(client.searchResources('Patient', { name: 'maria' }).read()).toHaveLength(1);
    expect(client.getCached('Patient', 'maria')).toEqual(maria);
  });

  test('partial results (_fields, _summary, SUBSETTED) are never cached as reads', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    // A server that leaves out the SUBSETTED tag: the parameters alone must stop the caching.
    let answer: Patient = { resourceType: 'Patient', id: 'maria' };
    fake.on('GET', '/Patient', () => jsonResponse(searchBundle(answer)));
    await client.search('Patient', { _fields: 'id' });
    expect(client.getCached('Patient', 'maria')).toBeUndefined();
    await client.search({ resourceType: 'Patient', summary: 'true' });
    expect(client.getCached('Patient', 'maria')).toBeUndefined();
    // A SUBSETTED resource is not a whole one, whatever the parameters.
    answer = { resourceType: 'Patient', id: 'maria', meta: { tag: [{ code: 'SUBSETTED' }] } };
    await client.search('Patient', { name: 'maria' });
    expect(client.getCached('Patient', 'maria')).toBeUndefined();
    // A whole resource is.
    answer = maria;
    await client.search('Patient', { name: 'garcia' });
    expect(client.getCached('Patient', 'maria')).toEqual(maria);
  });

  test('searchResourcePages follows next links until there is none', async () => {
    const { client, fake } = signedInClient();
    fake.on('GET', '/Patient', (call) => {
      const page = new URL(call.url).searchParams.get('_offset') ?? '0';
      const next =
        page === '0'
          ? `${FHIR}Patient?_count=1&_offset=1`
          : page === '1'
            ? `${FHIR}Patient?_count=1&_offset=2`
            : undefined;
      return jsonResponse({
        ...searchBundle({ resourceType: 'Patient', id: `p${page}` }),
        link: next ? [{ relation: 'next', url: next }] : [],
      });
    });
    const pages: string[][] = [];
    for await (const page of client.searchResourcePages('Patient', { _count: 1 })) {
      pages.push(page.map((p) => p.id as string));
    }
    expect(pages).toEqual([['p0'], ['p1'], ['p2']]);
  });
});

describe('SPEC §3 autoBatchTime through the client', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('reads within the window become one batch POST; a failed entry rejects only its reader', async () => {
    const { client, fake } = signedInClient({ autoBatchTime: 10 });
    fake.on('POST', '/fhir/R4/', (call) => {
      const bundle = JSON.parse(call.body as string) as Bundle;
      return jsonResponse({
        resourceType: 'Bundle',
        type: 'batch-response',
        entry: (bundle.entry ?? []).map((e) =>
          e.request?.url === 'Patient/gone'
            ? {
                response: {
                  status: '404',
                  outcome: {
                    resourceType: 'OperationOutcome',
                    issue: [{ severity: 'error', code: 'not-found', details: { text: 'Not found' } }],
                  },
                },
              }
            : {
                resource: { resourceType: 'Patient', id: String(e.request?.url).split('/')[1] },
                response: { status: '200' },
              },
        ),
      });
    });
    const reads = ['a', 'b', 'gone'].map((id) => client.readReference({ reference: `Patient/${id}` }));
    const settled = Promise.allSettled(reads);
    await jest.advanceTimersByTimeAsync(10);
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('Not found');
    const batches = fake.callsTo('POST', '/fhir/R4/');
    expect(batches).toHaveLength(1);
    expect(batches[0].url).toBe(FHIR);
    expect(batches[0].headers['Idempotency-Key']).toEqual(expect.any(String));
    expect(fake.calls.filter((c) => c.method === 'GET' && c.url.startsWith(FHIR))).toHaveLength(0);
  });

  test('non-FHIR GETs (auth/me) are never batched', async () => {
    const { client, fake } = signedInClient({ autoBatchTime: 10 });
    const me = client.getMe();
    await jest.advanceTimersByTimeAsync(0);
    await me;
    expect(fake.callsTo('GET', '/auth/me').length).toBeGreaterThanOrEqual(1);
    expect(fake.callsTo('POST', '/fhir/R4/')).toHaveLength(0);
  });
});

describe('issue #5: nothing left hanging, nothing kept after sign-out', () => {
  test('a failed auto-batch nobody awaits settles every read and raises no unhandled rejection', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { client, fake } = signedInClient({ autoBatchTime: 5 });
      fake.on('POST', '/fhir/R4/', () => Promise.reject(new TypeError('Failed to fetch')));
      const reads = ['a', 'b', 'c'].map((id) => client.readReference({ reference: `Patient/${id}` }));
      // Nobody attaches a handler; the reads still settle (after the batch POST's retries).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(reads.map((r) => r.getStatus())).toEqual(['error', 'error', 'error']);
      expect(() => reads[0].read()).toThrow('Failed to fetch');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  test('signOut forgets cached reads, so the next person never sees them', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    fake.on('GET', '/Patient/maria', () => jsonResponse(maria));
    fake.on('POST', '/oauth2/logout', () => jsonResponse({}));
    await client.readResource('Patient', 'maria');
    expect(client.getCached('Patient', 'maria')).toEqual(maria);
    await client.signOut();
    expect(client.getCached('Patient', 'maria')).toBeUndefined();
  });

  test('verbose logs each request and its status, never the token', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const { client, fake } = signedInClient({ verbose: true });
      fake.on('GET', '/Patient/maria', () => jsonResponse(maria));
      await client.readResource('Patient', 'maria');
      const lines = log.mock.calls.map((args) => args.join(' '));
      expect(lines).toEqual(
        expect.arrayContaining([`> GET ${FHIR}Patient/maria`, `< 200 GET ${FHIR}Patient/maria`]),
      );
      expect(lines.join('\n')).not.toMatch(/Bearer|eyJ/);
    } finally {
      log.mockRestore();
    }
  });
});
