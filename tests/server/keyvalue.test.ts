// keyvalue/v1/{key} over real HTTP (issue #5 "Server endpoints", SPEC §7 other platform calls):
// per-user text values, size limits, 404 for a missing key, sign-in required.
import { databases } from './support/test-databases';
import { call, startClinic } from './operations/support/clinic';
import type { Clinic } from './operations/support/clinic';
import { MAX_KEY_LENGTH, MAX_KEYS_PER_OWNER, MAX_VALUE_BYTES } from '../../src/server/keyvalue/store';

describe.each(databases())('keyvalue/v1 on %s', (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  const put = (key: string, value: string, tokens = clinic.maria, contentType = 'text/plain') =>
    call(clinic.server, 'PUT', `keyvalue/v1/${encodeURIComponent(key)}`, tokens, {
      body: value,
      contentType,
    });
  const get = (key: string, tokens = clinic.maria) =>
    call(clinic.server, 'GET', `keyvalue/v1/${encodeURIComponent(key)}`, tokens);
  const del = (key: string, tokens = clinic.maria) =>
    call(clinic.server, 'DELETE', `keyvalue/v1/${encodeURIComponent(key)}`, tokens);

  test('SPEC §7 PUT stores a text value (204), GET returns it as text/plain, PUT again replaces it, DELETE removes it', async () => {
    expect((await put('theme', 'dark')).status).toBe(204);
    const read = await get('theme');
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(read.text).toBe('dark');
    expect((await put('theme', 'light ☀ {"json": "is just text"}')).status).toBe(204);
    expect((await get('theme')).text).toBe('light ☀ {"json": "is just text"}');
    expect((await del('theme')).status).toBe(204);
    expect((await get('theme')).status).toBe(404);
  });

  test('a missing key is 404 on GET and DELETE, with a Not found outcome', async () => {
    const missing = await get('never-set');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ resourceType: 'OperationOutcome' });
    expect((await del('never-set')).status).toBe(404);
  });

  test("values are per user: Aisha, Dr Chen and another project never see Maria's value under the same key", async () => {
    expect((await put('shared-name', 'maria-secret')).status).toBe(204);
    for (const tokens of [clinic.aisha, clinic.chen, clinic.admin, clinic.otherAdmin]) {
      expect((await get('shared-name', tokens)).status).toBe(404);
      expect((await del('shared-name', tokens)).status).toBe(404);
    }
    expect((await put('shared-name', 'chen-value', clinic.chen)).status).toBe(204);
    expect((await get('shared-name')).text).toBe('maria-secret');
    expect((await get('shared-name', clinic.chen)).text).toBe('chen-value');
  });

  test('an empty value is a value', async () => {
    expect((await put('empty', '')).status).toBe(204);
    const read = await get('empty');
    expect(read.status).toBe(200);
    expect(read.text).toBe('');
  });

  test('size limits: a value over the limit is 413 and not stored; the limit itself is fine; a longer key is refused; a control character in a key is 400', async () => {
    const exact = 'x'.repeat(MAX_VALUE_BYTES);
    expect((await put('big', exact)).status).toBe(204);
    expect((await get('big')).text).toHaveLength(MAX_VALUE_BYTES);
    const tooBig = await put('big', 'y'.repeat(MAX_VALUE_BYTES + 1));
    expect(tooBig.status).toBe(413);
    expect(JSON.stringify(tooBig.body)).toContain(`${MAX_VALUE_BYTES} bytes`);
    // Multi-byte characters count in bytes.
    expect((await put('big', 'é'.repeat(MAX_VALUE_BYTES / 2 + 1))).status).toBe(413);
    expect((await get('big')).text).toBe(exact);
    expect((await put('k'.repeat(MAX_KEY_LENGTH), 'v')).status).toBe(204);
    // Longer keys never reach the route: Fastify's router answers 414 URI Too Long.
    expect((await put('k'.repeat(MAX_KEY_LENGTH + 1), 'v')).status).toBe(414);
    expect((await get('k'.repeat(MAX_KEY_LENGTH + 1))).status).toBe(414);
    expect((await put('tab\tkey', 'v')).status).toBe(400);
  });

  test('a body that is not text/plain is 415', async () => {
    const json = await put('typed', '{"a":1}', clinic.maria, 'application/json');
    expect(json.status).toBe(415);
    expect((await get('typed')).status).toBe(404);
  });

  test('anonymous or with a bad token: 401 on every method', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const anonymous = await call(clinic.server, method, 'keyvalue/v1/theme', undefined, {
        body: method === 'PUT' ? 'x' : undefined,
        contentType: 'text/plain',
      });
      expect({ method, status: anonymous.status }).toEqual({ method, status: 401 });
    }
    const forged = await call(clinic.server, 'GET', 'keyvalue/v1/theme', {
      ...clinic.maria,
      access_token: `${clinic.maria.access_token}x`,
    });
    expect(forged.status).toBe(401);
  });

  test(`at most ${MAX_KEYS_PER_OWNER} keys per user: one more is 413, replacing an existing key still works`, async () => {
    const owner = `User/${await userIdOf(clinic.aisha.access_token)}`;
    // Fill up directly in SQL (a thousand HTTP round trips would only slow the test).
    await clinic.server.db.query(
      `INSERT INTO key_value (owner, key, value)
       SELECT $1, 'fill-' || n, 'v' FROM generate_series(1, ${MAX_KEYS_PER_OWNER}) AS n`,
      [owner],
    );
    const over = await put('one-more', 'v', clinic.aisha);
    expect(over.status).toBe(413);
    expect((await put('fill-1', 'replaced', clinic.aisha)).status).toBe(204);
    expect((await get('fill-1', clinic.aisha)).text).toBe('replaced');
    expect((await del('fill-2', clinic.aisha)).status).toBe(204);
    expect((await put('one-more', 'v', clinic.aisha)).status).toBe(204);
  });

  async function userIdOf(accessToken: string): Promise<string> {
    const me = await call<{ user?: { id?: string } }>(clinic.server, 'GET', 'auth/me', {
      ...clinic.maria,
      access_token: accessToken,
    });
    return me.body.user?.id as string;
  }
});
