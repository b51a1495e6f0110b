// The FHIR REST API over real HTTP (fetch against app.listen), on each database engine
// (SPEC §3, §7 "FHIR calls", §8).
import type { Bundle, CapabilityStatement, OperationOutcome, Patient } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { APP_ORIGIN, startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const FHIR_JSON = 'application/fhir+json';

interface Sent {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

describe.each(databases())('FHIR REST API on %s', (_engine, kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { BODY_LIMIT: '65536' });
  });

  afterAll(async () => {
    await server.close();
  });

  async function send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Sent> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= FHIR_JSON;
    }
    const response = await fetch(path.startsWith('http') ? path : server.fhirUrl + path, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: tests check `text` instead.
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  function outcomeText(sent: Sent): string {
    const outcome = sent.body as OperationOutcome;
    expect(outcome.resourceType).toBe('OperationOutcome');
    return (outcome.issue ?? []).map((issue) => issue.details?.text ?? '').join('; ');
  }

  async function createPatient(patient: Partial<Patient> = {}): Promise<Patient> {
    const sent = await send('POST', 'Patient', { resourceType: 'Patient', ...patient });
    expect(sent.status).toBe(201);
    return sent.body as Patient;
  }

  describe('create, read, vread, update, patch, delete', () => {
    test('POST creates: 201, Location of the version, ETag, Last-Modified, fhir+json', async () => {
      const sent = await send('POST', 'Patient', {
        resourceType: 'Patient',
        name: [{ given: ['Maria'], family: 'Garcia' }],
      });
      expect(sent.status).toBe(201);
      const patient = sent.body as Patient;
      expect(sent.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
      expect(sent.headers.get('location')).toBe(
        `${server.fhirUrl}Patient/${patient.id}/_history/${patient.meta?.versionId}`,
      );
      expect(sent.headers.get('etag')).toBe(`W/"${patient.meta?.versionId}"`);
      expect(sent.headers.get('last-modified')).toBe(new Date(patient.meta!.lastUpdated!).toUTCString());
      expect(patient.meta?.author).toEqual({ reference: 'Device/system', display: 'System' });
      expect(patient.meta?.compartment).toEqual([{ reference: `Patient/${patient.id}` }]);
      // The Location answers with exactly what was created.
      const located = await send('GET', sent.headers.get('location')!);
      expect(located.status).toBe(200);
      expect(located.body).toEqual(patient);
    });

    test('GET reads with ETag; If-None-Match with the current version answers 304 with no body', async () => {
      const patient = await createPatient({ gender: 'female' });
      const read = await send('GET', `Patient/${patient.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(patient);
      expect(read.headers.get('etag')).toBe(`W/"${patient.meta?.versionId}"`);
      const notModified = await send('GET', `Patient/${patient.id}`, undefined, {
        'if-none-match': `W/"${patient.meta?.versionId}"`,
      });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      const modified = await send('GET', `Patient/${patient.id}`, undefined, {
        'if-none-match': 'W/"some-older-version"',
      });
      expect(modified.status).toBe(200);
    });

    test('GET of an unknown id is 404 Not found', async () => {
      const sent = await send('GET', 'Patient/00000000-0000-4000-8000-000000000000');
      expect(sent.status).toBe(404);
      expect(outcomeText(sent)).toBe('Not found');
    });

    test('PUT updates with a new version; vread returns both; a stale If-Match is 412', async () => {
      const v1 = await createPatient({ gender: 'female' });
      const put = await send(
        'PUT',
        `Patient/${v1.id}`,
        { ...v1, gender: 'other' },
        { 'if-match': `W/"${v1.meta?.versionId}"` },
      );
      expect(put.status).toBe(200);
      const v2 = put.body as Patient;
      expect(v2.meta?.versionId).not.toBe(v1.meta?.versionId);
      expect(put.headers.get('etag')).toBe(`W/"${v2.meta?.versionId}"`);
      expect(
        ((await send('GET', `Patient/${v1.id}/_history/${v1.meta?.versionId}`)).body as Patient).gender,
      ).toBe('female');
      const vread = await send('GET', `Patient/${v1.id}/_history/${v2.meta?.versionId}`);
      expect((vread.body as Patient).gender).toBe('other');
      expect(vread.headers.get('etag')).toBe(`W/"${v2.meta?.versionId}"`);
      const stale = await send(
        'PUT',
        `Patient/${v1.id}`,
        { ...v1, gender: 'male' },
        { 'if-match': `W/"${v1.meta?.versionId}"` },
      );
      expect(stale.status).toBe(412);
      expect(outcomeText(stale)).toMatch(/Version conflict/);
      expect(((await send('GET', `Patient/${v1.id}`)).body as Patient).gender).toBe('other');
    });

    test('PUT to a new id creates it: 201 with Location', async () => {
      const sent = await send('PUT', 'Patient/rest-put-create', {
        resourceType: 'Patient',
        id: 'rest-put-create',
      });
      expect(sent.status).toBe(201);
      expect(sent.headers.get('location')).toMatch(/\/fhir\/R4\/Patient\/rest-put-create\/_history\//);
    });

    test('PATCH applies a JSON Patch (application/json-patch+json) as a new version', async () => {
      const v1 = await createPatient({ name: [{ family: 'Khan' }] });
      const sent = await send(
        'PATCH',
        `Patient/${v1.id}`,
        [{ op: 'add', path: '/name/0/given', value: ['Aisha'] }],
        {
          'content-type': 'application/json-patch+json',
        },
      );
      expect(sent.status).toBe(200);
      expect((sent.body as Patient).name).toEqual([{ family: 'Khan', given: ['Aisha'] }]);
      expect(sent.headers.get('etag')).toBe(`W/"${(sent.body as Patient).meta?.versionId}"`);
    });

    test('DELETE: 200 All OK, then read is 410 Gone, history keeps every version', async () => {
      const patient = await createPatient();
      const deleted = await send('DELETE', `Patient/${patient.id}`);
      expect(deleted.status).toBe(200);
      expect(outcomeText(deleted)).toBe('All OK');
      const read = await send('GET', `Patient/${patient.id}`);
      expect(read.status).toBe(410);
      expect((read.body as OperationOutcome).resourceType).toBe('OperationOutcome');
      const old = await send('GET', `Patient/${patient.id}/_history/${patient.meta?.versionId}`);
      expect(old.status).toBe(200);
      const history = await send('GET', `Patient/${patient.id}/_history`);
      const bundle = history.body as Bundle;
      expect(bundle.type).toBe('history');
      expect(bundle.entry?.map((e) => e.request?.method)).toEqual(['DELETE', 'POST']);
      expect(bundle.entry?.map((e) => e.response?.status)).toEqual(['200', '201']);
      expect(bundle.entry?.[0].response?.etag).toMatch(/^W\/"[0-9a-f-]{36}"$/);
      expect(bundle.entry?.[1].resource).toEqual(patient);
      expect((await send('DELETE', 'Patient/never-existed')).status).toBe(404);
    });
  });

  describe('conditional create (If-None-Exist)', () => {
    test('creates once, then returns the match with 200', async () => {
      const body = {
        resourceType: 'Patient',
        identifier: [{ system: 'http://bloom.example/mrn', value: 'REST-1' }],
      };
      const headers = { 'if-none-exist': 'identifier=http://bloom.example/mrn|REST-1' };
      const first = await send('POST', 'Patient', body, headers);
      expect(first.status).toBe(201);
      const second = await send('POST', 'Patient', body, headers);
      expect(second.status).toBe(200);
      expect((second.body as Patient).id).toBe((first.body as Patient).id);
      expect(second.headers.get('location')).toBeNull();
    });

    test('an unknown search parameter is a 400 naming it (any known one is a search, issue #4)', async () => {
      const sent = await send(
        'POST',
        'Patient',
        { resourceType: 'Patient' },
        { 'if-none-exist': 'shoe-size=42' },
      );
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/'shoe-size'/);
    });
  });

  describe('history and the plain list', () => {
    test('type history lists versions of every resource of the type, newest first, paged', async () => {
      const a = await send('POST', 'Practitioner', { resourceType: 'Practitioner' });
      const b = await send('POST', 'Practitioner', { resourceType: 'Practitioner' });
      const sent = await send('GET', 'Practitioner/_history?_count=1');
      const bundle = sent.body as Bundle;
      expect(bundle.type).toBe('history');
      expect(bundle.entry?.map((e) => e.resource?.id)).toEqual([(b.body as Patient).id]);
      const next = bundle.link?.find((l) => l.relation === 'next')?.url;
      expect(next).toBe(`${server.fhirUrl}Practitioner/_history?_count=1&_offset=1`);
      const page2 = (await send('GET', next!)).body as Bundle;
      expect(page2.entry?.map((e) => e.resource?.id)).toEqual([(a.body as Patient).id]);
    });

    test('GET {type} is a searchset, paged by _count/_offset with next links (search itself: tests/server/search)', async () => {
      const created: string[] = [];
      for (let i = 0; i < 3; i++) {
        const sent = await send('POST', 'Organization', { resourceType: 'Organization', name: `Org ${i}` });
        created.push((sent.body as Patient).id as string);
      }
      const sent = await send('GET', 'Organization?_count=2&_sort=-_lastUpdated');
      expect(sent.status).toBe(200);
      const bundle = sent.body as Bundle;
      expect(bundle.type).toBe('searchset');
      const matches = bundle.entry?.filter((e) => e.search?.mode === 'match') ?? [];
      expect(matches.map((e) => e.resource?.id)).toEqual([created[2], created[1]]);
      expect(matches[0].fullUrl).toBe(`${server.fhirUrl}Organization/${created[2]}`);
      expect(bundle.link?.find((l) => l.relation === 'self')?.url).toBe(
        `${server.fhirUrl}Organization?_count=2&_offset=0&_sort=-_lastUpdated`,
      );
      const next = bundle.link?.find((l) => l.relation === 'next')?.url;
      const page2 = (await send('GET', next!)).body as Bundle;
      expect(page2.entry?.filter((e) => e.search?.mode === 'match').map((e) => e.resource?.id)).toEqual([
        created[0],
      ]);
      expect(page2.link?.find((l) => l.relation === 'next')).toBeUndefined();
    });

    test('_count defaults to 20 and is clamped to 1000', async () => {
      const byDefault = (await send('GET', 'Organization')).body as Bundle;
      expect(byDefault.link?.[0].url).toMatch(/\?_count=20&_offset=0$/);
      const clamped = (await send('GET', 'Organization?_count=5000')).body as Bundle;
      expect(clamped.link?.[0].url).toMatch(/\?_count=1000&_offset=0$/);
    });

    test('an unknown parameter, or a bad _count, is a 400 naming it', async () => {
      const sent = await send('GET', 'Patient?nickname=Maria');
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/Unknown search parameter 'nickname' for Patient/);
      const badCount = await send('GET', 'Patient?_count=-1');
      expect(badCount.status).toBe(400);
      expect(outcomeText(badCount)).toMatch(/_count/);
    });
  });

  describe('$validate', () => {
    test('a valid resource: 200 All OK, nothing stored', async () => {
      const before = (await send('GET', 'Patient/_history?_count=1000')).body as Bundle;
      const sent = await send('POST', 'Patient/$validate', {
        resourceType: 'Patient',
        birthDate: '1990-04-01',
      });
      expect(sent.status).toBe(200);
      expect(outcomeText(sent)).toBe('All OK');
      const after = (await send('GET', 'Patient/_history?_count=1000')).body as Bundle;
      expect(after.entry?.length).toBe(before.entry?.length);
    });

    test('an invalid resource: 400 with the element of each issue', async () => {
      const sent = await send('POST', 'Patient/$validate', {
        resourceType: 'Patient',
        birthDate: 'April',
        colour: 'blue',
      });
      expect(sent.status).toBe(400);
      const outcome = sent.body as OperationOutcome;
      const expressions = outcome.issue?.flatMap((issue) => issue.expression ?? []);
      expect(expressions).toEqual(expect.arrayContaining(['Patient.birthDate']));
      expect(outcomeText(sent)).toMatch(/colour/);
    });
  });

  describe('batch and transaction', () => {
    test('a transaction creates everything and rewrites urn:uuid references', async () => {
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            fullUrl: 'urn:uuid:7f0c0b8e-1111-4a3a-9d0e-000000000001',
            resource: {
              resourceType: 'Observation',
              status: 'final',
              code: { text: 'Weight' },
              subject: { reference: 'urn:uuid:7f0c0b8e-1111-4a3a-9d0e-000000000002' },
            },
            request: { method: 'POST', url: 'Observation' },
          },
          {
            fullUrl: 'urn:uuid:7f0c0b8e-1111-4a3a-9d0e-000000000002',
            resource: { resourceType: 'Patient', name: [{ family: 'Transaction' }] },
            request: { method: 'POST', url: 'Patient' },
          },
        ],
      };
      const sent = await send('POST', '', bundle);
      expect(sent.status).toBe(200);
      const response = sent.body as Bundle;
      expect(response.type).toBe('transaction-response');
      expect(response.entry?.map((e) => e.response?.status)).toEqual(['201', '201']);
      const patientId = response.entry?.[1].resource?.id;
      const observation = response.entry?.[0].resource as {
        subject?: { reference?: string };
        meta?: { compartment?: unknown };
      };
      expect(observation.subject?.reference).toBe(`Patient/${patientId}`);
      expect(observation.meta?.compartment).toEqual([{ reference: `Patient/${patientId}` }]);
      expect(response.entry?.[0].response?.location).toMatch(/\/fhir\/R4\/Observation\/.+\/_history\/.+/);
      expect((await send('GET', `Patient/${patientId}`)).status).toBe(200);
    });

    test('a transaction with one bad entry is 400 naming the entry, and nothing at all is written', async () => {
      const before = ((await send('GET', 'Patient/_history?_count=1000')).body as Bundle).entry?.length;
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: { resourceType: 'Patient', name: [{ family: 'Good' }] },
            request: { method: 'POST', url: 'Patient' },
          },
          {
            resource: { resourceType: 'Patient', birthDate: 'not-a-date' } as Patient,
            request: { method: 'POST', url: 'Patient' },
          },
        ],
      };
      const sent = await send('POST', '', bundle);
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/Bundle\.entry\[1\]/);
      const after = ((await send('GET', 'Patient/_history?_count=1000')).body as Bundle).entry?.length;
      expect(after).toBe(before);
    });

    test('a transaction of PUTs (written together): 201 for new, 200 for existing, a bad one names its entry and writes nothing', async () => {
      const existing = await createPatient();
      const puts = (patients: Patient[]): Bundle => ({
        resourceType: 'Bundle',
        type: 'transaction',
        entry: patients.map((resource) => ({
          resource,
          request: { method: 'PUT', url: `Patient/${resource.id}` },
        })),
      });
      const sent = await send(
        'POST',
        '',
        puts([
          { resourceType: 'Patient', id: 'tx-put-1', gender: 'female' },
          { ...existing, gender: 'other' },
        ]),
      );
      expect(sent.status).toBe(200);
      const response = sent.body as Bundle;
      expect(response.entry?.map((e) => e.response?.status)).toEqual(['201', '200']);
      expect(response.entry?.[0].response?.location).toMatch(/\/fhir\/R4\/Patient\/tx-put-1\/_history\/.+/);
      expect(((await send('GET', `Patient/${existing.id}`)).body as Patient).gender).toBe('other');

      const bad = await send(
        'POST',
        '',
        puts([
          { resourceType: 'Patient', id: 'tx-put-2' },
          { resourceType: 'Patient', id: 'tx-put-3', birthDate: 'never' } as Patient,
        ]),
      );
      expect(bad.status).toBe(400);
      expect(outcomeText(bad)).toMatch(/Bundle\.entry\[1\]/);
      expect((await send('GET', 'Patient/tx-put-2')).status).toBe(404);
      const mismatch = await send('POST', '', {
        ...puts([{ resourceType: 'Patient', id: 'tx-put-4' }]),
        entry: [
          {
            resource: { resourceType: 'Patient', id: 'tx-put-4' },
            request: { method: 'PUT', url: 'Patient/tx-put-4' },
          },
          {
            resource: { resourceType: 'Patient', id: 'other' },
            request: { method: 'PUT', url: 'Patient/tx-put-5' },
          },
        ],
      });
      expect(mismatch.status).toBe(400);
      expect(outcomeText(mismatch)).toMatch(/Bundle\.entry\[1\].*does not match/);
      expect((await send('GET', 'Patient/tx-put-4')).status).toBe(404);
    });

    test('a batch runs each entry on its own and reports each status', async () => {
      const patient = await createPatient();
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { resource: { resourceType: 'Patient' }, request: { method: 'POST', url: 'Patient' } },
          { request: { method: 'GET', url: `Patient/${patient.id}` } },
          {
            resource: { resourceType: 'Patient', birthDate: 'nope' },
            request: { method: 'POST', url: 'Patient' },
          },
          { request: { method: 'GET', url: 'Patient/00000000-0000-4000-8000-000000000000' } },
          {
            resource: {
              resourceType: 'Binary',
              contentType: 'application/json-patch+json',
              data: Buffer.from(JSON.stringify([{ op: 'add', path: '/gender', value: 'female' }])).toString(
                'base64',
              ),
            },
            request: { method: 'PATCH', url: `Patient/${patient.id}` },
          },
          { request: { method: 'DELETE', url: `Patient/${patient.id}` } },
        ],
      };
      const sent = await send('POST', '', bundle);
      expect(sent.status).toBe(200);
      const response = sent.body as Bundle;
      expect(response.type).toBe('batch-response');
      expect(response.entry?.map((e) => e.response?.status)).toEqual([
        '201',
        '200',
        '400',
        '404',
        '200',
        '200',
      ]);
      expect(response.entry?.[1].resource).toEqual(patient);
      expect(response.entry?.[2].response?.outcome?.resourceType).toBe('OperationOutcome');
      expect((response.entry?.[4].resource as Patient).gender).toBe('female');
      expect((await send('GET', `Patient/${patient.id}`)).status).toBe(410);
    });

    test('a transaction: conditional create matches by urn:uuid, reads see its own writes, a stale If-Match rolls back all', async () => {
      const existing = await createPatient({
        identifier: [{ system: 'http://bloom.example/mrn', value: 'TX-1' }],
      });
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            fullUrl: 'urn:uuid:5b6e9a1c-2222-4c1d-8e0f-000000000001',
            resource: { resourceType: 'Patient' },
            request: {
              method: 'POST',
              url: 'Patient',
              ifNoneExist: 'identifier=http://bloom.example/mrn|TX-1',
            },
          },
          {
            resource: {
              resourceType: 'Communication',
              status: 'completed',
              subject: { reference: 'urn:uuid:5b6e9a1c-2222-4c1d-8e0f-000000000001' },
            },
            request: { method: 'POST', url: 'Communication' },
          },
          { request: { method: 'GET', url: `Patient/${existing.id}/_history` } },
        ],
      };
      const sent = await send('POST', '', bundle);
      expect(sent.status).toBe(200);
      const response = sent.body as Bundle;
      expect(response.entry?.map((e) => e.response?.status)).toEqual(['200', '201', '200']);
      expect(response.entry?.[0].resource?.id).toBe(existing.id);
      expect((response.entry?.[1].resource as { subject?: { reference?: string } }).subject?.reference).toBe(
        `Patient/${existing.id}`,
      );
      expect((response.entry?.[2].resource as Bundle).type).toBe('history');

      const communicationsBefore = ((await send('GET', 'Communication/_history?_count=1000')).body as Bundle)
        .entry?.length;
      const stale: Bundle = {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: { resourceType: 'Communication', status: 'completed' },
            request: { method: 'POST', url: 'Communication' },
          },
          {
            resource: { ...existing, gender: 'female' },
            request: {
              method: 'PUT',
              url: `Patient/${existing.id}`,
              ifMatch: 'W/"00000000-0000-4000-8000-000000000000"',
            },
          },
        ],
      };
      const conflict = await send('POST', '', stale);
      expect(conflict.status).toBe(412);
      expect(outcomeText(conflict)).toMatch(/Bundle\.entry\[1\]: Version conflict/);
      const communicationsAfter = ((await send('GET', 'Communication/_history?_count=1000')).body as Bundle)
        .entry?.length;
      expect(communicationsAfter).toBe(communicationsBefore);
      expect(((await send('GET', `Patient/${existing.id}`)).body as Patient).gender).toBeUndefined();
    });

    test('batch GET entries: list, type history, instance history and vread behave as over HTTP', async () => {
      const patient = await createPatient();
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'GET', url: 'Patient?_count=1' } },
          { request: { method: 'GET', url: 'Patient/_history?_count=1' } },
          { request: { method: 'GET', url: `Patient/${patient.id}/_history` } },
          {
            request: {
              method: 'GET',
              url: `${server.fhirUrl}Patient/${patient.id}/_history/${patient.meta?.versionId}`,
            },
          },
          { request: { method: 'GET', url: 'Patient?nickname=x' } },
          { request: { method: 'PUT', url: 'Patient?identifier=x' }, resource: { resourceType: 'Patient' } },
        ],
      };
      const response = (await send('POST', '', bundle)).body as Bundle;
      expect(response.entry?.map((e) => e.response?.status)).toEqual([
        '200',
        '200',
        '200',
        '200',
        '400',
        '400',
      ]);
      expect((response.entry?.[0].resource as Bundle).type).toBe('searchset');
      expect((response.entry?.[1].resource as Bundle).type).toBe('history');
      expect((response.entry?.[2].resource as Bundle).entry?.[0].resource).toEqual(patient);
      expect(response.entry?.[3].resource).toEqual(patient);
      expect(response.entry?.[3].response?.etag).toBe(`W/"${patient.meta?.versionId}"`);
      expect(response.entry?.[4].response?.outcome?.issue?.[0].details?.text).toMatch(/'nickname'/);
      expect(response.entry?.[5].response?.outcome?.issue?.[0].details?.text).toMatch(
        /Conditional PUT is not supported/,
      );
    });

    test('a batch entry without a request is a 400 naming it', async () => {
      const sent = await send('POST', '', {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ resource: { resourceType: 'Patient' } }],
      });
      expect(sent.status).toBe(400);
      expect((sent.body as OperationOutcome).issue?.[0].expression).toEqual(['Bundle.entry[0].request']);
    });

    test('a Bundle that is not batch or transaction is a 400', async () => {
      const sent = await send('POST', '', { resourceType: 'Bundle', type: 'collection' });
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/batch or transaction/);
    });
  });

  describe('bad input: each a 4xx OperationOutcome naming the problem', () => {
    test('malformed JSON: 400', async () => {
      const sent = await send('POST', 'Patient', '{"resourceType": "Patient",');
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/Malformed JSON/);
    });

    test('a body whose resourceType differs from the URL: 400', async () => {
      const sent = await send('POST', 'Patient', { resourceType: 'Observation' });
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/'Observation' does not match the URL's type 'Patient'/);
    });

    test('an id mismatch on update: 400', async () => {
      const patient = await createPatient();
      const sent = await send('PUT', `Patient/${patient.id}`, { ...patient, id: 'someone-else' });
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/does not match the URL's id/);
      const missing = await send('PUT', `Patient/${patient.id}`, { resourceType: 'Patient' });
      expect(missing.status).toBe(400);
      expect(outcomeText(missing)).toMatch(/Missing id/);
    });

    test('an unknown element: 400 naming it', async () => {
      const sent = await send('POST', 'Patient', { resourceType: 'Patient', favouriteColour: 'blue' });
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/favouriteColour/);
    });

    test('a __proto__ key is an unknown element, not a change of prototype', async () => {
      const sent = await send(
        'POST',
        'Patient',
        '{"resourceType":"Patient","__proto__":{"gender":"female"}}',
      );
      expect(sent.status).toBe(400);
      expect(outcomeText(sent)).toMatch(/__proto__/);
    });

    test('an invalid primitive: 400 with the element', async () => {
      const sent = await send('POST', 'Patient', { resourceType: 'Patient', birthDate: '31/12/1990' });
      expect(sent.status).toBe(400);
      const outcome = sent.body as OperationOutcome;
      expect(outcome.issue?.flatMap((issue) => issue.expression ?? [])).toContain('Patient.birthDate');
    });

    test('an unknown resource type in the URL: 404 naming it (in a body it is a 400)', async () => {
      const sent = await send('GET', 'Unicorn');
      expect(sent.status).toBe(404);
      expect(outcomeText(sent)).toBe("Unknown resource type 'Unicorn'");
      const created = await send('POST', 'Unicorn', { resourceType: 'Unicorn' });
      expect(created.status).toBe(404);
      const batch = await send('POST', '', {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [{ resource: { resourceType: 'Unicorn' }, request: { method: 'PUT', url: 'Patient/x' } }],
      });
      expect(batch.status).toBe(400);
    });

    test('a wrong content type: 415', async () => {
      const text = await send('POST', 'Patient', 'resourceType=Patient', { 'content-type': 'text/plain' });
      expect(text.status).toBe(415);
      expect((text.body as OperationOutcome).resourceType).toBe('OperationOutcome');
      const form = await send('POST', 'Patient', 'a=b', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(415);
      const patchAsPut = await send('PUT', 'Patient/x', [], {
        'content-type': 'application/json-patch+json',
      });
      expect(patchAsPut.status).toBe(415);
      const fhirAsPatch = await send('PATCH', 'Patient/x', [], { 'content-type': 'application/fhir+json' });
      expect(fhirAsPatch.status).toBe(415);
    });

    test('plain application/json and a charset parameter are accepted', async () => {
      const sent = await send(
        'POST',
        'Patient',
        { resourceType: 'Patient' },
        { 'content-type': 'application/json; charset=utf-8' },
      );
      expect(sent.status).toBe(201);
    });

    test('a body over the size limit: 413', async () => {
      const sent = await send('POST', 'Patient', {
        resourceType: 'Patient',
        name: [{ text: 'x'.repeat(70000) }],
      });
      expect(sent.status).toBe(413);
      expect(outcomeText(sent)).toMatch(/65536 bytes/);
    });

    test('an invalid JSON Patch: 400', async () => {
      const patient = await createPatient();
      const headers = { 'content-type': 'application/json-patch+json' };
      const notArray = await send('PATCH', `Patient/${patient.id}`, { op: 'add' }, headers);
      expect(notArray.status).toBe(400);
      expect(outcomeText(notArray)).toMatch(/JSON Patch must be an array/);
      const badOp = await send('PATCH', `Patient/${patient.id}`, [{ op: 'explode', path: '/x' }], headers);
      expect(badOp.status).toBe(400);
      expect(outcomeText(badOp)).toMatch(/unknown op 'explode'/);
      const badPath = await send(
        'PATCH',
        `Patient/${patient.id}`,
        [{ op: 'replace', path: '/name/7/family', value: 'x' }],
        headers,
      );
      expect(badPath.status).toBe(400);
      expect(outcomeText(badPath)).toMatch(/Invalid JSON Patch/);
      const invalidResult = await send(
        'PATCH',
        `Patient/${patient.id}`,
        [{ op: 'add', path: '/birthDate', value: 'soon' }],
        headers,
      );
      expect(invalidResult.status).toBe(400);
      expect(((await send('GET', `Patient/${patient.id}`)).body as Patient).meta?.versionId).toBe(
        patient.meta?.versionId,
      );
    });

    test('a version conflict: 412', async () => {
      const patient = await createPatient();
      await send('PUT', `Patient/${patient.id}`, { ...patient, gender: 'female' });
      const stale = await send('DELETE', `Patient/${patient.id}`, undefined, {
        'if-match': `W/"${patient.meta?.versionId}"`,
      });
      expect(stale.status).toBe(412);
      const stalePatch = await send('PATCH', `Patient/${patient.id}`, [], {
        'content-type': 'application/json-patch+json',
        'if-match': `W/"${patient.meta?.versionId}"`,
      });
      expect(stalePatch.status).toBe(412);
    });

    test('an unknown route: 404 OperationOutcome', async () => {
      const sent = await send('GET', `${server.baseUrl}no/such/route`);
      expect(sent.status).toBe(404);
      expect(outcomeText(sent)).toBe('Not found');
      expect(sent.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    });
  });

  describe('metadata, healthcheck, headers', () => {
    test('GET /metadata: a CapabilityStatement listing only what is implemented', async () => {
      const sent = await send('GET', 'metadata');
      expect(sent.status).toBe(200);
      const statement = sent.body as CapabilityStatement;
      expect(statement.resourceType).toBe('CapabilityStatement');
      expect(statement.fhirVersion).toBe('4.0.1');
      const patient = statement.rest?.[0].resource?.find((r) => r.type === 'Patient');
      const codes = patient?.interaction?.map((i) => i.code);
      expect(codes).toEqual(
        expect.arrayContaining([
          'read',
          'vread',
          'update',
          'patch',
          'delete',
          'history-instance',
          'history-type',
          'create',
        ]),
      );
      expect(patient?.interaction?.find((i) => i.code === 'search-type')?.documentation).toMatch(
        /_count defaults to 20 and is capped at 1000/,
      );
      expect(patient?.searchParam).toEqual(expect.arrayContaining([{ name: 'name', type: 'string' }]));
      expect(patient?.conditionalUpdate).toBe(false);
      expect(statement.rest?.[0].interaction?.map((i) => i.code)).toEqual([
        'transaction',
        'batch',
        'search-system',
      ]);
    });

    test('GET /healthcheck: ok with a database round trip', async () => {
      const sent = await send('GET', `${server.baseUrl}healthcheck`);
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ ok: true, database: kind.engine });
    });

    test('security headers on every response, errors included', async () => {
      for (const path of ['metadata', 'Patient/missing', `${server.baseUrl}nowhere`]) {
        const sent = await send('GET', path);
        expect(sent.headers.get('x-content-type-options')).toBe('nosniff');
        expect(sent.headers.get('x-frame-options')).toBe('DENY');
        expect(sent.headers.get('referrer-policy')).toBe('no-referrer');
        const csp = sent.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toContain('unsafe-inline');
      }
    });

    test('CORS: the app origin is allowed, another origin is not', async () => {
      const allowed = await send('GET', 'metadata', undefined, { origin: APP_ORIGIN });
      expect(allowed.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      expect(allowed.headers.get('access-control-expose-headers')).toMatch(/ETag/);
      const preflight = await fetch(`${server.fhirUrl}Patient`, {
        method: 'OPTIONS',
        headers: {
          origin: APP_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
      const denied = await send('GET', 'metadata', undefined, { origin: 'https://evil.example' });
      expect(denied.headers.get('access-control-allow-origin')).toBeNull();
      const deniedPreflight = await fetch(`${server.fhirUrl}Patient`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(deniedPreflight.headers.get('access-control-allow-origin')).toBeNull();
    });

    test('every write is committed before its response: a second connection sees it at once', async () => {
      const patient = await createPatient();
      const { rows } = await server.db.query<{ id: string }>(
        'SELECT id FROM resource WHERE resource_type = $1 AND id = $2',
        ['Patient', patient.id!],
      );
      expect(rows).toEqual([{ id: patient.id }]);
    });
  });
});
