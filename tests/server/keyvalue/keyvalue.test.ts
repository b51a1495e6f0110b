// keyvalue/v1/{key} over real HTTP:
// per-user text values, 204 No Content for a key not set (not a 404 a browser logs), sign-in required. The keys,
// values and limits Medplum's key-value API accepts, and its answers (status and text) otherwise, so
// an app that passes here does not fail on a Medplum server.
import { databases } from '../support/test-databases';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import type { Tokens } from '../auth/support/auth-fixtures';
import { keyValueMedplumKeysMigration } from '../../../src/server/keyvalue/migrations';
import { MAX_BODY_BYTES } from '../../../src/server/keyvalue/routes';
import { MAX_KEY_LENGTH, MAX_KEYS_PER_OWNER, MAX_VALUE_LENGTH } from '../../../src/server/keyvalue/store';

interface Outcome {
  resourceType?: string;
  issue?: { details?: { text?: string } }[];
}

const textOf = (body: Outcome | undefined): string | undefined => body?.issue?.[0]?.details?.text;

describe.each(databases())('keyvalue/v1 on %s', (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  /** `rawKey` goes into the path as it is (tests of what the path itself carries). */
  const send = (
    method: string,
    rawKey: string,
    tokens: Tokens | undefined,
    body?: string,
    contentType = 'text/plain',
  ) => call<Outcome>(clinic.server, method, `keyvalue/v1/${rawKey}`, tokens, { body, contentType });
  const put = (key: string, value: string, tokens = clinic.maria, contentType = 'text/plain') =>
    send('PUT', encodeURIComponent(key), tokens, value, contentType);
  const get = (key: string, tokens = clinic.maria) => send('GET', encodeURIComponent(key), tokens);
  const del = (key: string, tokens = clinic.maria) => send('DELETE', encodeURIComponent(key), tokens);

  test('SPEC §7 PUT stores a text value (204), GET returns it as text/plain, PUT again replaces it, DELETE removes it', async () => {
    expect((await put('theme', 'dark')).status).toBe(204);
    const read = await get('theme');
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(read.headers.get('x-content-type-options')).toBe('nosniff');
    expect(read.text).toBe('dark');
    expect((await put('theme', 'light ☀ {"json": "is just text"}')).status).toBe(204);
    expect((await get('theme')).text).toBe('light ☀ {"json": "is just text"}');
    expect((await del('theme')).status).toBe(204);
    expect((await get('theme')).status).toBe(204);
  });

  test('a key not set is 204 No Content on GET (no body, no error a browser logs); DELETE of it is 204, as in Medplum', async () => {
    const missing = await get('never-set');
    expect(missing.status).toBe(204);
    expect(missing.text).toBe('');
    expect((await del('never-set')).status).toBe(204);
    // An empty value is a value: 200 with an empty body, told apart from a key not set.
    expect((await put('empty-but-set', '')).status).toBe(204);
    expect((await get('empty-but-set')).status).toBe(200);
    expect((await del('empty-but-set')).status).toBe(204);
  });

  test("values are per user: Aisha, Dr Chen and another project never see or delete Maria's value under the same key", async () => {
    expect((await put('shared-name', 'maria-secret')).status).toBe(204);
    for (const tokens of [clinic.aisha, clinic.chen, clinic.admin, clinic.otherAdmin]) {
      expect((await get('shared-name', tokens)).status).toBe(204);
      expect((await del('shared-name', tokens)).status).toBe(204);
    }
    expect((await put('shared-name', 'chen-value', clinic.chen)).status).toBe(204);
    expect((await get('shared-name')).text).toBe('maria-secret');
    expect((await get('shared-name', clinic.chen)).text).toBe('chen-value');
    expect((await del('shared-name')).status).toBe(204);
    expect((await del('shared-name', clinic.chen)).status).toBe(204);
  });

  test('an empty value is a value', async () => {
    expect((await put('empty', '')).status).toBe(204);
    const read = await get('empty');
    expect(read.status).toBe(200);
    expect(read.text).toBe('');
    expect((await del('empty')).status).toBe(204);
  });

  test("issue #20: Medplum's keys work: ASCII letters, digits, '-' and '_', 1 to 255 characters (the app's own keys among them)", async () => {
    const good = [
      'a',
      'Z9',
      '-',
      '_',
      'under_score-and-dash',
      'bloom-share-context',
      'bloom-search-table',
      'k'.repeat(MAX_KEY_LENGTH),
    ];
    for (const key of good) {
      const stored = await put(key, `value of ${key}`);
      expect({ key, status: stored.status }).toEqual({ key, status: 204 });
      const read = await get(key);
      expect({ key, status: read.status, text: read.text }).toEqual({
        key,
        status: 200,
        text: `value of ${key}`,
      });
      expect({ key, status: (await del(key)).status }).toEqual({ key, status: 204 });
    }
  });

  test("issue #20: every other key is 400 'Invalid key' on GET, PUT and DELETE, as Medplum answers: dot, encoded slash, too long, unicode, space, colon, plus", async () => {
    const bad: [string, string][] = [
      ['dot (the app’s old keys)', encodeURIComponent('bloom.share-context')],
      ['dotted type key', encodeURIComponent('bloom.search-table.Observation')],
      ['encoded slash', encodeURIComponent('theme/colour')],
      ['one over the length', 'k'.repeat(MAX_KEY_LENGTH + 1)],
      ["Medplum's too-long test (2048)", 'a'.repeat(2048)],
      ['unicode letter', encodeURIComponent('café')],
      ['cyrillic', encodeURIComponent('ключ')],
      ['emoji', encodeURIComponent('🌸')],
      ['space', encodeURIComponent('two words')],
      ['colons', 'key:with:colons'],
      ['plus signs', 'key+with+spaces'],
      ['tab', encodeURIComponent('tab\tkey')],
      ['percent', encodeURIComponent('100%')],
    ];
    for (const [name, rawKey] of bad) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const answer = await send(method, rawKey, clinic.maria, method === 'PUT' ? 'v' : undefined);
        expect({ name, method, status: answer.status, text: textOf(answer.body) }).toEqual({
          name,
          method,
          status: 400,
          text: 'Invalid key',
        });
      }
    }
    const { rows } = await clinic.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM key_value');
    expect(rows[0].n).toBe(0);
  });

  test('no key, or a raw slash in the path, names no key route: 404, as in Medplum', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      for (const rawKey of ['', 'theme/colour']) {
        const answer = await send(method, rawKey, clinic.maria, method === 'PUT' ? 'v' : undefined);
        expect({ method, rawKey, status: answer.status }).toEqual({ method, rawKey, status: 404 });
      }
    }
  });

  test(`values: at most ${MAX_VALUE_LENGTH} characters (UTF-16 units, as Medplum counts), one more is 400 'Value too long' and not stored`, async () => {
    const exact = 'x'.repeat(MAX_VALUE_LENGTH);
    expect((await put('big', exact)).status).toBe(204);
    expect((await get('big')).text).toHaveLength(MAX_VALUE_LENGTH);
    const tooLong = await put('big', 'y'.repeat(MAX_VALUE_LENGTH + 1));
    expect({ status: tooLong.status, text: textOf(tooLong.body) }).toEqual({
      status: 400,
      text: 'Value too long',
    });
    // Characters, not bytes: 8192 two-byte letters fit; 4097 emoji are 8194 UTF-16 units and do not.
    expect((await put('big', 'é'.repeat(MAX_VALUE_LENGTH))).status).toBe(204);
    expect((await put('big', '🌸'.repeat(MAX_VALUE_LENGTH / 2 + 1))).status).toBe(400);
    expect((await get('big')).text).toBe('é'.repeat(MAX_VALUE_LENGTH));
    // A body past the read limit is refused unread.
    const huge = await put('big', 'z'.repeat(MAX_BODY_BYTES + 1));
    expect(huge.status).toBe(413);
    expect((await get('big')).text).toBe('é'.repeat(MAX_VALUE_LENGTH));
    expect((await del('big')).status).toBe(204);
  });

  test("a body that is not text/plain is 400 'Invalid value type', as in Medplum, and not stored", async () => {
    for (const contentType of ['application/json', 'application/octet-stream', 'text/html']) {
      const answer = await put('typed', '{"a":1}', clinic.maria, contentType);
      expect({ contentType, status: answer.status, text: textOf(answer.body) }).toEqual({
        contentType,
        status: 400,
        text: 'Invalid value type',
      });
    }
    const noBody = await send('PUT', 'typed', clinic.maria);
    expect({ status: noBody.status, text: textOf(noBody.body) }).toEqual({
      status: 400,
      text: 'Invalid value type',
    });
    expect((await put('typed', 'ok', clinic.maria, 'text/plain; charset=utf-8')).status).toBe(204);
    expect((await get('typed')).text).toBe('ok');
    expect((await del('typed')).status).toBe(204);
  });

  test('anonymous or with a bad token: 401 on every method, before the key is looked at', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      for (const rawKey of ['theme', 'bad.key']) {
        const anonymous = await send(method, rawKey, undefined, method === 'PUT' ? 'x' : undefined);
        expect({ method, rawKey, status: anonymous.status }).toEqual({ method, rawKey, status: 401 });
      }
    }
    const forged = await get('theme', { ...clinic.maria, access_token: `${clinic.maria.access_token}x` });
    expect(forged.status).toBe(401);
  });

  test(`at most ${MAX_KEYS_PER_OWNER} keys per user, as in Medplum: one more is 400 'Max items exceeded', replacing an existing key still works`, async () => {
    for (let i = 1; i <= MAX_KEYS_PER_OWNER; i++) {
      expect((await put(`fill-${i}`, 'v', clinic.aisha)).status).toBe(204);
    }
    const over = await put('one-more', 'v', clinic.aisha);
    expect({ status: over.status, text: textOf(over.body) }).toEqual({
      status: 400,
      text: 'Max items exceeded',
    });
    expect((await get('one-more', clinic.aisha)).status).toBe(204);
    // Another user's count is their own.
    expect((await put('one-more', 'v', clinic.chen)).status).toBe(204);
    expect((await put('fill-1', 'replaced', clinic.aisha)).status).toBe(204);
    expect((await get('fill-1', clinic.aisha)).text).toBe('replaced');
    expect((await del('fill-2', clinic.aisha)).status).toBe(204);
    expect((await put('one-more', 'v', clinic.aisha)).status).toBe(204);
  });

  test("issue #20 migration 22: values stored under keys Medplum refuses move to the app's new names, so preferences survive; the newest value wins a clash", async () => {
    const me = await call<{ user?: { id?: string } }>(clinic.server, 'GET', 'auth/me', clinic.admin);
    const owner = `User/${me.body.user?.id}`;
    const other = 'User/someone-else';
    const rows: [string, string, string, string][] = [
      [owner, 'bloom.share-context', 'on', '2026-01-01'],
      [owner, 'bloom.search-table.Observation', '{"fields":["status"]}', '2026-01-01'],
      // A clash: the valid key was written later, it stays.
      [owner, 'a.b', 'older', '2026-01-01'],
      [owner, 'a-b', 'newer', '2026-02-01'],
      // A clash the other way: the refused key was written later, its value moves.
      [owner, 'x-y', 'older', '2026-01-01'],
      [owner, 'x.y', 'newer', '2026-02-01'],
      [owner, 'café', 'accent', '2026-01-01'],
      [owner, `${'k'.repeat(250)}.long-key`, 'cut', '2026-01-01'],
      [other, 'bloom.share-context', 'off', '2026-01-01'],
    ];
    for (const [rowOwner, key, value, at] of rows) {
      await clinic.server.db.query(
        'INSERT INTO key_value (owner, key, value, updated_at) VALUES ($1, $2, $3, $4)',
        [rowOwner, key, value, at],
      );
    }
    await clinic.server.db.transaction((tx) => keyValueMedplumKeysMigration.up(tx));
    const { rows: after } = await clinic.server.db.query<{ owner: string; key: string; value: string }>(
      'SELECT owner, key, value FROM key_value WHERE owner = ANY($1) ORDER BY owner, key',
      [[owner, other]],
    );
    expect(after.map((row) => [row.owner === owner ? 'admin' : 'other', row.key, row.value])).toEqual([
      ['admin', 'a-b', 'newer'],
      ['admin', 'bloom-search-table-Observation', '{"fields":["status"]}'],
      ['admin', 'bloom-share-context', 'on'],
      ['admin', 'caf-', 'accent'],
      ['admin', 'k'.repeat(250) + '-long', 'cut'],
      ['admin', 'x-y', 'newer'],
      ['other', 'bloom-share-context', 'off'],
    ]);
    expect((await get('bloom-share-context', clinic.admin)).text).toBe('on');
    expect((await get('bloom-search-table-Observation', clinic.admin)).text).toBe('{"fields":["status"]}');
  });
});
