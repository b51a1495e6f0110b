// Operations and platform calls through BloomClient with a fake fetch (SPEC §7 FHIR calls
// and other platform calls, §5 'PDF creation not enabled', §4 offline event). Bots, agents and bulk
// export have no server yet (a later issue): they are tested here only.
import { jsonResponse } from './support/fake-fetch';
import { BASE, FHIR, signedInClient } from './support/fhir-client-setup';

function json(body: string | undefined): unknown {
  return JSON.parse(body ?? 'null');
}

describe('SPEC §7 operations', () => {
  test('graphql POSTs {query, operationName, variables} to $graphql', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/$graphql', () => jsonResponse({ data: { PatientList: [] } }));
    const result = await client.graphql('query Q($n: String) { PatientList(name: $n) { id } }', 'Q', {
      n: 'maria',
    });
    expect(result).toEqual({ data: { PatientList: [] } });
    const [call] = fake.callsTo('POST', '/$graphql');
    expect(call.url).toBe(`${FHIR}$graphql`);
    expect(call.headers['Content-Type']).toBe('application/json');
    expect(json(call.body)).toEqual({
      query: 'query Q($n: String) { PatientList(name: $n) { id } }',
      operationName: 'Q',
      variables: { n: 'maria' },
    });
  });

  test('executeBot by id (JSON body) and by identifier (text body)', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/Bot/b1/$execute', () => jsonResponse({ ok: 1 }));
    fake.on('POST', '/Bot/$execute', () => jsonResponse({ ok: 2 }));
    await expect(client.executeBot('b1', { a: 1 })).resolves.toEqual({ ok: 1 });
    await expect(
      client.executeBot({ system: 'https://bloom.example/bots', value: 'triage' }, 'hello'),
    ).resolves.toEqual({ ok: 2 });
    const [byId] = fake.callsTo('POST', '/Bot/b1/$execute');
    expect(byId.headers['Content-Type']).toBe('application/json');
    expect(byId.body).toBe('{"a":1}');
    const [byIdentifier] = fake.callsTo('POST', '/Bot/$execute');
    expect(byIdentifier.url).toBe(
      `${FHIR}Bot/$execute?identifier=https%3A%2F%2Fbloom.example%2Fbots%7Ctriage`,
    );
    expect(byIdentifier.headers['Content-Type']).toBe('text/plain');
    expect(byIdentifier.body).toBe('hello');
    await expect(client.executeBot('', {})).rejects.toThrow('Missing id');
  });

  test('pushToAgent POSTs Agent/{id}/$push {destination, body, contentType, waitForResponse}', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/Agent/a1/$push', () => jsonResponse({ resourceType: 'OperationOutcome', issue: [] }));
    await client.pushToAgent(
      { reference: 'Agent/a1' },
      { resourceType: 'Device', id: 'd1' },
      'MSH|...',
      'x-application/hl7-v2+er7',
      true,
    );
    await client.pushToAgent(
      { resourceType: 'Agent', id: 'a1', name: 'a', status: 'active' },
      'Device/d2',
      'ping',
    );
    const bodies = fake.callsTo('POST', '/Agent/a1/$push').map((c) => json(c.body));
    expect(bodies).toEqual([
      {
        destination: 'Device/d1',
        body: 'MSH|...',
        contentType: 'x-application/hl7-v2+er7',
        waitForResponse: true,
      },
      { destination: 'Device/d2', body: 'ping' },
    ]);
  });

  describe('bulkExport', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    test('POST {level}/$export?_type&_since with Prefer: respond-async, polls the status URL every 1000 ms, returns the manifest', async () => {
      const { client, fake } = signedInClient();
      const manifest = {
        transactionTime: '2026-01-01T00:00:00Z',
        request: 'x',
        output: [{ type: 'Patient', url: 'u' }],
      };
      fake.on(
        'POST',
        '/Group/g1/$export',
        () =>
          new Response('', { status: 202, headers: { 'Content-Location': `${BASE}fhir/R4/bulkdata/job1` } }),
      );
      let polls = 0;
      fake.on('GET', '/bulkdata/job1', () =>
        ++polls < 3
          ? new Response('', { status: 202, headers: { 'Content-Location': `${BASE}fhir/R4/bulkdata/job1` } })
          : jsonResponse(manifest),
      );
      const result = client.bulkExport('Group/g1', 'Patient,Observation', '2025-01-01T00:00:00Z');
      const settled = result.then((v) => v);
      await jest.advanceTimersByTimeAsync(2999);
      expect(polls).toBe(2);
      await jest.advanceTimersByTimeAsync(1);
      await expect(settled).resolves.toEqual(manifest);
      const [post] = fake.callsTo('POST', '/Group/g1/$export');
      expect(post.url).toBe(
        `${FHIR}Group/g1/$export?_type=Patient%2CObservation&_since=2025-01-01T00%3A00%3A00Z`,
      );
      expect(post.headers.Prefer).toBe('respond-async');
      expect(post.headers['Idempotency-Key']).toEqual(expect.any(String));
    });

    test('system level: POST $export', async () => {
      const { client, fake } = signedInClient();
      fake.on('POST', '/$export', () => jsonResponse({ transactionTime: 't', request: 'r' }));
      await expect(client.bulkExport()).resolves.toEqual({ transactionTime: 't', request: 'r' });
      expect(fake.callsTo('POST', '/$export')[0].url).toBe(`${FHIR}$export`);
    });
  });
});

describe('SPEC §7 other platform calls', () => {
  test('keyValue.get/set/delete on keyvalue/v1/{key}; a missing key reads as undefined', async () => {
    const { client, fake } = signedInClient({ cacheTime: 60000 });
    const values = new Map<string, string>();
    const keyOf = (url: string): string => decodeURIComponent(url.split('/keyvalue/v1/')[1]);
    fake.on('GET', '', (call) => {
      const value = values.get(keyOf(call.url));
      return value === undefined
        ? new Response('', { status: 404 })
        : new Response(value, { headers: { 'content-type': 'text/plain' } });
    });
    fake.on('PUT', '', (call) => {
      values.set(keyOf(call.url), call.body as string);
      return new Response(null, { status: 204 });
    });
    fake.on('DELETE', '', (call) => {
      values.delete(keyOf(call.url));
      return new Response(null, { status: 204 });
    });
    await expect(client.keyValue.get('theme/colour')).resolves.toBeUndefined();
    await client.keyValue.set('theme/colour', 'violet');
    // Read from the server each time, never from the cache.
    await expect(client.keyValue.get('theme/colour')).resolves.toBe('violet');
    await client.keyValue.set('theme/colour', 'green');
    await expect(client.keyValue.get('theme/colour')).resolves.toBe('green');
    await client.keyValue.delete('theme/colour');
    await expect(client.keyValue.get('theme/colour')).resolves.toBeUndefined();
    const put = fake.calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe(`${BASE}keyvalue/v1/theme%2Fcolour`);
    expect(put?.headers['Content-Type']).toBe('text/plain');
    await expect(client.keyValue.get('')).rejects.toThrow('Missing key');
  });

  test('invite POSTs admin/projects/{id}/invite; sendEmail POSTs email/v1/send; both with an Idempotency-Key', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/admin/projects/clinic/invite', () =>
      jsonResponse({ resourceType: 'ProjectMembership', id: 'm1' }),
    );
    fake.on('POST', '/email/v1/send', () =>
      jsonResponse({ resourceType: 'OperationOutcome', id: 'ok', issue: [] }),
    );
    await expect(
      client.invite('clinic', {
        resourceType: 'Patient',
        firstName: 'Nora',
        lastName: 'New',
        email: 'nora@example.org',
      }),
    ).resolves.toMatchObject({ id: 'm1' });
    await expect(
      client.sendEmail({ to: 'nora@example.org', subject: 'Hi', text: 'Welcome' }),
    ).resolves.toMatchObject({ id: 'ok' });
    for (const call of fake.calls.filter((c) => c.method === 'POST')) {
      expect(call.headers['Idempotency-Key']).toEqual(expect.any(String));
      expect(call.headers['Content-Type']).toBe('application/json');
    }
    expect(json(fake.callsTo('POST', '/email/v1/send')[0].body)).toEqual({
      to: 'nora@example.org',
      subject: 'Hi',
      text: 'Welcome',
    });
  });

  test('auth/* POSTs carry no Idempotency-Key (the server does not honour one there, so they are never retried)', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/auth/method', () => jsonResponse({}));
    await client.post('auth/method', { email: 'a@b.c' });
    expect(fake.callsTo('POST', '/auth/method')[0].headers['Idempotency-Key']).toBeUndefined();
  });
});

describe('binaries, attachments, PDFs (SPEC §7, §5)', () => {
  test('createBinary POSTs the raw body to Binary?_filename with its content type; createAttachment points at it', async () => {
    const { client, fake } = signedInClient();
    fake.on('POST', '/Binary', () =>
      jsonResponse(
        {
          resourceType: 'Binary',
          id: 'bin1',
          contentType: 'text/plain',
          url: 'https://storage.test/bin1?Expires=1',
        },
        201,
      ),
    );
    const binary = await client.createBinary('hello', 'note.txt', 'text/plain');
    expect(binary.id).toBe('bin1');
    const [call] = fake.callsTo('POST', '/Binary');
    expect(call.url).toBe(`${FHIR}Binary?_filename=note.txt`);
    expect(call.headers['Content-Type']).toBe('text/plain');
    expect(call.body).toBe('hello');
    expect(call.headers['Idempotency-Key']).toEqual(expect.any(String));
    const attachment = await client.createAttachment({
      data: 'hi',
      filename: 'a.txt',
      contentType: 'text/plain',
    });
    expect(attachment).toEqual({
      contentType: 'text/plain',
      url: 'https://storage.test/bin1?Expires=1',
      title: 'a.txt',
    });
  });

  test("SPEC §5: createPdf without a generator → 'PDF creation not enabled'; with one, a Binary of application/pdf", async () => {
    const { client } = signedInClient();
    await expect(client.createPdf({ content: ['x'] })).rejects.toThrow('PDF creation not enabled');
    const createPdf = jest.fn(async () => '%PDF-1.4 fake');
    const { client: withPdf, fake } = signedInClient({ createPdf });
    fake.on('POST', '/Binary', () =>
      jsonResponse({ resourceType: 'Binary', id: 'pdf1', contentType: 'application/pdf' }, 201),
    );
    await expect(withPdf.createPdf({ content: ['x'] }, 'report.pdf')).resolves.toMatchObject({ id: 'pdf1' });
    expect(createPdf).toHaveBeenCalledWith({ content: ['x'] }, undefined, undefined);
    const [call] = fake.callsTo('POST', '/Binary');
    expect(call.headers['Content-Type']).toBe('application/pdf');
    expect(call.url).toBe(`${FHIR}Binary?_filename=report.pdf`);
  });

  test('SPEC §9: getCachedBinaryUrl keeps the URL already shown while it has more than 5 s left', () => {
    let now = Date.UTC(2026, 0, 1);
    const { client } = signedInClient({ now: () => now });
    const seconds = Math.floor(now / 1000);
    const first = `https://storage.test/Binary/b1?Expires=${seconds + 60}&Signature=aaa`;
    const second = `https://storage.test/Binary/b1?Expires=${seconds + 120}&Signature=bbb`;
    expect(client.getCachedBinaryUrl(first)).toBe(first);
    expect(client.getCachedBinaryUrl(second)).toBe(first);
    now += 55_000; // 5 s left: no longer enough
    expect(client.getCachedBinaryUrl(second)).toBe(second);
  });
});

describe('SPEC §4 events through the client', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("'Failed to fetch' twice emits offline to the client's listeners", async () => {
    const { client, fake } = signedInClient();
    const offline = jest.fn();
    client.addEventListener('offline', offline);
    fake.on('GET', '/Patient/maria', () => Promise.reject(new TypeError('Failed to fetch')));
    const read = client.readResource('Patient', 'maria').then(
      () => 'ok',
      (err: unknown) => (err as Error).message,
    );
    await jest.advanceTimersByTimeAsync(1000);
    await expect(read).resolves.toBe('Failed to fetch');
    expect(offline).toHaveBeenCalledTimes(1);
    expect(offline).toHaveBeenCalledWith({ type: 'offline' });
  });
});
