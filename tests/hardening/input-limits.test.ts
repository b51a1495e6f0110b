// Bounds on one request's input (src/server/input-limits.ts, fhir/search-limits.ts, json-patch.ts,
// fhir/batch.ts): each malformed or oversized input the attacker's fuzz answered 500 or froze PGlite
// with is now a 400 OperationOutcome that names the problem, and nothing is stored. Real HTTP, PGlite
// and PostgreSQL with TEST_DATABASE_URL.
import type { Bundle, CapabilityStatement, Observation, OperationOutcome, Patient } from '@medplum/fhirtypes';
import { REQUEST_LIMITS_EXTENSION } from '../../src/server/fhir/capability-statement';
import { MAX_TOKEN_TEXT } from '../../src/server/search/extract-index-rows';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

function outcomeText(answer: Answer): string {
  return (answer.body as OperationOutcome).issue?.[0]?.details?.text ?? '';
}

function nested(levels: number, leaf: string): string {
  return '['.repeat(levels) + leaf + ']'.repeat(levels);
}

describe.each(databases())('input limits (issue #23) on %s', (_engine, kind) => {
  let server: TestServer;
  let maria: Patient;

  beforeAll(async () => {
    // A small batch limit, so the batch test does not need a thousand entries.
    // A small index limit: 300 names of three parts each need more than 500 index values.
    server = await startTestServer(kind, { MAX_BATCH_ENTRIES: '5', MAX_INDEX_VALUES: '500' });
    maria = (await send('POST', 'Patient', { resourceType: 'Patient', name: [{ family: 'Garcia' }] }))
      .body as Patient;
  });

  afterAll(async () => {
    await server.close();
  });

  async function sendRaw(method: string, path: string, body?: string, contentType = 'application/fhir+json') {
    const response = await fetch(server.fhirUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': contentType },
      body,
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text } satisfies Answer;
  }

  function send(method: string, path: string, body?: unknown, contentType?: string) {
    return sendRaw(method, path, body === undefined ? undefined : JSON.stringify(body), contentType);
  }

  async function patientCount(): Promise<number> {
    const answer = await send('GET', 'Patient?_summary=count');
    return (answer.body as Bundle).total ?? -1;
  }

  async function expectRefused(answer: Answer, named: RegExp): Promise<void> {
    expect(answer.status).toBe(400);
    expect((answer.body as OperationOutcome).resourceType).toBe('OperationOutcome');
    expect(outcomeText(answer)).toMatch(named);
  }

  describe('REST bodies', () => {
    it('refuses 10,000 levels of arrays and of extensions, storing nothing', async () => {
      const before = await patientCount();
      const arrays = `{"resourceType":"Patient","name":[{"given":${nested(10_000, '"x"')}}]}`;
      await expectRefused(
        await sendRaw('POST', 'Patient', arrays),
        /nested deeper than 64 levels at \$\.name\[0\]/,
      );
      // JSON.stringify recurses: the text is built by hand.
      const open = '{"url":"http://example.org/x","extension":['.repeat(10_000);
      const text = `{"resourceType":"Patient","extension":[${open}{"url":"u","valueString":"leaf"}${']}'.repeat(10_000)}]}`;
      await expectRefused(await sendRaw('POST', 'Patient', text), /nested deeper than 64 levels/);
      expect(await patientCount()).toBe(before);
    });

    it.each([
      ['NUL', '\\u0000', /U\+0000; FHIR strings may hold no control characters/],
      ['another control character', '\\u0007', /U\+0007/],
      ['a lone high surrogate', '\\ud800', /unpaired surrogate \(U\+D800\)/],
      ['a lone low surrogate', '\\udc00x', /unpaired surrogate \(U\+DC00\)/],
    ])('refuses %s in a string, naming where', async (_name, escaped, named) => {
      const before = await patientCount();
      const body = `{"resourceType":"Patient","name":[{"family":"A${escaped}B"}]}`;
      const answer = await sendRaw('POST', 'Patient', body);
      await expectRefused(answer, named);
      expect(outcomeText(answer)).toContain('$.name[0].family');
      expect(await patientCount()).toBe(before);
    });

    it('refuses a control character in a property name', async () => {
      await expectRefused(
        await sendRaw('POST', 'Patient', '{"resourceType":"Patient","a\\u0000b":1}'),
        /property name at \$\.a.b contains the control character U\+0000/,
      );
    });

    it('keeps tab, CR, LF, a right-to-left override and paired surrogates as sent', async () => {
      const family = 'Line\tone\r\nمريم \u202eevil\u202c 🌸';
      const escaped = `{"resourceType":"Patient","name":[{"family":"Line\\tone\\r\\n\\u0645\\u0631\\u064a\\u0645 \\u202eevil\\u202c \\ud83c\\udf38"}]}`;
      const created = await sendRaw('POST', 'Patient', escaped);
      expect(created.status).toBe(201);
      const read = await send('GET', `Patient/${(created.body as Patient).id}`);
      expect((read.body as Patient).name?.[0].family).toBe(family);
    });

    it('refuses an array longer than MAX_ARRAY_LENGTH and a string longer than MAX_STRING_LENGTH', async () => {
      const before = await patientCount();
      const names = Array.from({ length: 1001 }, (_, i) => ({ family: `N${i}` }));
      await expectRefused(
        await send('POST', 'Patient', { resourceType: 'Patient', name: names }),
        /array at \$\.name has 1001 elements; the limit is 1000/,
      );
      const long = 'x'.repeat(1_048_577);
      await expectRefused(
        await send('POST', 'Patient', { resourceType: 'Patient', name: [{ text: long }] }),
        /string at \$\.name\[0\]\.text is 1048577 characters long; the limit is 1048576/,
      );
      expect(await patientCount()).toBe(before);
    });
  });

  describe('search index values per resource', () => {
    const names = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ family: `Family${i}`, given: [`Given${i}`, `Middle${i}`] }));

    test('a resource that would need more index values than MAX_INDEX_VALUES is refused and not stored', async () => {
      const before = await patientCount();
      const created = await send('POST', 'Patient', { resourceType: 'Patient', name: names(300) });
      await expectRefused(created, /search index values; the limit is 500 \(MAX_INDEX_VALUES\)/);
      const updated = await send('PUT', `Patient/${maria.id}`, { ...maria, name: names(300) });
      await expectRefused(updated, /the limit is 500/);
      const transaction = await send('POST', '', {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            request: { method: 'POST', url: 'Patient' },
            resource: { resourceType: 'Patient', name: names(300) },
          },
        ],
      });
      expect(transaction.status).toBe(400);
      expect(transaction.text).toMatch(/MAX_INDEX_VALUES/);
      expect(await patientCount()).toBe(before);
      const stored = (await send('GET', `Patient/${maria.id}`)).body as Patient;
      expect(stored.name).toHaveLength(1);
    });

    test('a resource under the limit is stored and found', async () => {
      const created = await send('POST', 'Patient', { resourceType: 'Patient', name: names(20) });
      expect(created.status).toBe(201);
      const found = await send('GET', 'Patient?family=Family19');
      expect((found.body as Bundle).entry?.map((e) => e.resource?.id)).toContain(
        (created.body as Patient).id,
      );
    });

    test('the limit is in the CapabilityStatement', async () => {
      const statement = (await send('GET', 'metadata')).body as CapabilityStatement;
      const limits =
        statement.rest?.[0].extension?.find((e) => e.url === REQUEST_LIMITS_EXTENSION)?.extension ?? [];
      expect(limits.find((e) => e.url === 'maxIndexValues')?.valueInteger).toBe(500);
    });

    test('a coding text near the string limit is stored whole; :text searches its first MAX_TOKEN_TEXT characters', async () => {
      // About 600 KB: a word at the start, filler, and a word past the indexed part.
      const text = `glucose ${'filler '.repeat(90_000)}needle`;
      expect(text.length).toBeGreaterThan(MAX_TOKEN_TEXT * 100);
      const created = await send('POST', 'Observation', {
        resourceType: 'Observation',
        status: 'final',
        code: { text },
      });
      expect(created.status).toBe(201);
      const id = (created.body as Observation).id;
      const stored = (await send('GET', `Observation/${id}`)).body as Observation;
      expect(stored.code.text).toBe(text);
      const found = async (word: string) =>
        ((await send('GET', `Observation?code:text=${word}&_elements=id`)).body as Bundle).entry?.map(
          (e) => e.resource?.id,
        ) ?? [];
      expect(await found('glucose')).toContain(id);
      expect(await found('needle')).not.toContain(id);
    });
  });

  describe('JSON Patch', () => {
    const PATCH = 'application/json-patch+json';

    async function expectUnchanged(): Promise<void> {
      const read = await send('GET', `Patient/${maria.id}`);
      expect((read.body as Patient).meta?.versionId).toBe(maria.meta?.versionId);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    }

    it.each([
      [
        '/__proto__/admin',
        [{ op: 'add', path: '/__proto__/admin', value: true }],
        /may not name the member '__proto__'/,
      ],
      [
        '/constructor/prototype',
        [{ op: 'replace', path: '/constructor/prototype/x', value: 1 }],
        /'constructor'/,
      ],
      ['a from through __proto__', [{ op: 'copy', from: '/__proto__', path: '/x' }], /from may not name/],
      [
        'a move into its own child',
        [{ op: 'move', from: '/name', path: '/name/0/x' }],
        /cannot move '\/name' into its own child/,
      ],
      ['a path that is not a pointer', [{ op: 'add', path: 'name', value: 1 }], /is not a JSON pointer/],
      ['a move without from', [{ op: 'move', path: '/x' }], /'move' needs a from pointer/],
    ])('refuses %s and changes nothing', async (_name, patch, named) => {
      await expectRefused(await send('PATCH', `Patient/${maria.id}`, patch, PATCH), named);
      await expectUnchanged();
    });

    it('refuses a deeply nested test value at parse time', async () => {
      const body = `[{"op":"test","path":"/name","value":${nested(10_000, '1')}}]`;
      await expectRefused(
        await sendRaw('PATCH', `Patient/${maria.id}`, body, PATCH),
        /nested deeper than 64/,
      );
      await expectUnchanged();
    });
  });

  describe('batch and transaction', () => {
    it.each(['batch', 'transaction'])(
      'refuses a %s of more than MAX_BATCH_ENTRIES entries, storing nothing',
      async (type) => {
        const before = await patientCount();
        const entry = Array.from({ length: 6 }, () => ({
          request: { method: 'POST', url: 'Patient' },
          resource: { resourceType: 'Patient' },
        }));
        await expectRefused(
          await send('POST', '', { resourceType: 'Bundle', type, entry }),
          new RegExp(`Bundle has 6 entries; a ${type} may hold at most 5`),
        );
        expect(await patientCount()).toBe(before);
        const allowed = await send('POST', '', { resourceType: 'Bundle', type, entry: entry.slice(0, 5) });
        expect(allowed.status).toBe(200);
        expect(await patientCount()).toBe(before + 5);
      },
    );
  });

  describe('search parameters', () => {
    it('refuses 300 repeated code parameters at once', async () => {
      const query = Array.from({ length: 300 }, (_, i) => `code=http://loinc.org|${i}`).join('&');
      const started = Date.now();
      await expectRefused(await send('GET', `Observation?${query}`), /300 parameters; the limit is 32/);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('refuses too many comma-separated values, and the same in a POST _search form', async () => {
      const values = Array.from({ length: 101 }, (_, i) => `http://loinc.org|${i}`).join(',');
      await expectRefused(
        await send('GET', `Observation?code=${values}`),
        /101 parameter values; the limit is 100/,
      );
      const form = new URLSearchParams(Array.from({ length: 33 }, (_, i) => ['code', String(i)]));
      await expectRefused(
        await sendRaw('POST', 'Observation/_search', form.toString(), 'application/x-www-form-urlencoded'),
        /33 parameters; the limit is 32/,
      );
    });

    it('refuses a control character in a parameter value', async () => {
      await expectRefused(
        await send('GET', 'Patient?name=a%00b'),
        /Parameter 'name' contains the control character U\+0000/,
      );
    });

    it('answers the largest allowed search (32 repeated code parameters) within seconds', async () => {
      const query = Array.from({ length: 32 }, (_, i) => `code=http://loinc.org|${i}`).join('&');
      const started = Date.now();
      const answer = await send('GET', `Observation?${query}`);
      const elapsed = Date.now() - started;
      console.log(`largest allowed search on ${kind.engine}: ${elapsed} ms`);
      expect(answer.status).toBe(200);
      expect(elapsed).toBeLessThan(10_000);
    });
  });

  it('publishes the limits in the CapabilityStatement', async () => {
    const statement = (await send('GET', 'metadata')).body as CapabilityStatement;
    const limits = statement.rest?.[0].extension?.find((e) => e.url === REQUEST_LIMITS_EXTENSION);
    const values = Object.fromEntries((limits?.extension ?? []).map((e) => [e.url, e.valueInteger]));
    expect(values).toEqual({
      maxDepth: 64,
      maxArrayLength: 1000,
      maxStringLength: 1048576,
      maxBatchEntries: 5,
      maxSearchParameters: 32,
      maxSearchValues: 100,
      maxIndexValues: 500,
      requestTimeout: 30000,
    });
    expect(statement.rest?.[0].documentation).toContain('a batch or transaction holds at most 5 entries');
  });
});
