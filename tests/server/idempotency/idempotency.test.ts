// Idempotency-Key over real HTTP (writes are never duplicated by a retry; SPEC §4 client retries): a repeated
// POST with the same key and body gets the first response and writes nothing; another body is 422; keys are
// per caller and expire.
import crypto from 'node:crypto';
import type { Bundle, Observation } from '@medplum/fhirtypes';
import { databases } from '../support/test-databases';
import { call, startClinic } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import type { Tokens } from '../auth/support/auth-fixtures';

describe.each(databases())('Idempotency-Key on %s', (_engine, kind) => {
  let clinic: Clinic;

  beforeAll(async () => {
    clinic = await startClinic(kind);
  });

  afterAll(async () => {
    await clinic.server.close();
  });

  const observation = (tokens: Tokens, marker: string): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { text: marker },
    subject: { reference: tokens.profile?.reference },
  });

  const post = (path: string, tokens: Tokens, body: unknown, key?: string) =>
    call(clinic.server, 'POST', `fhir/R4/${path}`, tokens, {
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });

  /** How many stored Observations carry this marker, read straight from the database. */
  async function stored(marker: string): Promise<number> {
    const { rows } = await clinic.server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM resource WHERE resource_type = 'Observation' AND content->'code'->>'text' = $1`,
      [marker],
    );
    return rows[0].n;
  }

  const newKey = () => crypto.randomUUID();
  const newMarker = () => `idem-${crypto.randomBytes(6).toString('hex')}`;

  test('SPEC §4 a create repeated with the same key and body answers the first 201 again and writes once', async () => {
    const key = newKey();
    const marker = newMarker();
    const first = await post('Observation', clinic.chen, observation(clinic.maria, marker), key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('Observation', clinic.chen, observation(clinic.maria, marker), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await stored(marker)).toBe(1);
  });

  test('without the header every POST writes', async () => {
    const marker = newMarker();
    expect((await post('Observation', clinic.chen, observation(clinic.maria, marker))).status).toBe(201);
    expect((await post('Observation', clinic.chen, observation(clinic.maria, marker))).status).toBe(201);
    expect(await stored(marker)).toBe(2);
  });

  test('the same key with a different body is 422 and writes nothing; the first response stays replayable', async () => {
    const key = newKey();
    const marker = newMarker();
    const first = await post('Observation', clinic.chen, observation(clinic.maria, marker), key);
    const other = newMarker();
    const different = await post('Observation', clinic.chen, observation(clinic.maria, other), key);
    expect(different.status).toBe(422);
    expect(JSON.stringify(different.body)).toContain(
      'Idempotency-Key was already used for a different request',
    );
    expect(await stored(other)).toBe(0);
    // Another URL with the same body is another request too.
    expect(
      (await post('Observation/$validate', clinic.chen, observation(clinic.maria, marker), key)).status,
    ).toBe(422);
    const replay = await post('Observation', clinic.chen, observation(clinic.maria, marker), key);
    expect(replay.text).toBe(first.text);
  });

  test('keys are per caller: Maria, Dr Chen and another project may use the same key independently', async () => {
    const key = newKey();
    const marker = newMarker();
    const byChen = await post('Observation', clinic.chen, observation(clinic.maria, marker), key);
    const byMaria = await post('Observation', clinic.maria, observation(clinic.maria, marker), key);
    expect(byChen.status).toBe(201);
    expect(byMaria.status).toBe(201);
    expect(byMaria.headers.get('idempotent-replayed')).toBeNull();
    expect((byMaria.body as unknown as Observation).id).not.toBe((byChen.body as unknown as Observation).id);
    expect(await stored(marker)).toBe(2);
    // Another project's admin never gets Maria's stored response back (it would leak her data).
    const foreign = await post('Observation', clinic.otherAdmin, observation(clinic.maria, marker), key);
    expect(foreign.headers.get('idempotent-replayed')).toBeNull();
    expect(foreign.text).not.toBe(byMaria.text);
  });

  test('a transaction Bundle repeated with its key is processed once', async () => {
    const key = newKey();
    const marker = newMarker();
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [1, 2].map(() => ({
        resource: observation(clinic.maria, marker),
        request: { method: 'POST', url: 'Observation' },
      })),
    };
    const first = await post('', clinic.chen, bundle, key);
    expect(first.status).toBe(200);
    const again = await post('', clinic.chen, bundle, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await stored(marker)).toBe(2);
  });

  test('a refused request is replayed as refused (the same 403), not re-run', async () => {
    const key = newKey();
    // Maria (a patient) may not create a Practitioner: 403.
    const body = { resourceType: 'Practitioner', name: [{ family: 'Nope' }] };
    const first = await post('Practitioner', clinic.maria, body, key);
    expect(first.status).toBe(403);
    const again = await post('Practitioner', clinic.maria, body, key);
    expect(again.status).toBe(403);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test('malformed keys are 400: too long, with spaces, or empty', async () => {
    for (const key of ['k'.repeat(256), 'has space', '']) {
      const response = await post('Observation', clinic.chen, observation(clinic.maria, newMarker()), key);
      expect({ key, status: response.status }).toEqual({ key, status: 400 });
    }
    expect(
      (await post('Observation', clinic.chen, observation(clinic.maria, newMarker()), 'k'.repeat(255)))
        .status,
    ).toBe(201);
  });

  test('anonymous POSTs with a key are 401 and keep nothing', async () => {
    const response = await call(clinic.server, 'POST', 'fhir/R4/Observation', undefined, {
      body: observation(clinic.maria, newMarker()),
      headers: { 'idempotency-key': newKey() },
    });
    expect(response.status).toBe(401);
  });

  test('a key older than the window is forgotten: the same request writes again', async () => {
    const key = newKey();
    const marker = newMarker();
    expect((await post('Observation', clinic.chen, observation(clinic.maria, marker), key)).status).toBe(201);
    await clinic.server.db.query(
      "UPDATE idempotency_key SET created_at = now() - interval '2 days' WHERE key = $1",
      [key],
    );
    const later = await post('Observation', clinic.chen, observation(clinic.maria, marker), key);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await stored(marker)).toBe(2);
  });

  test('a retry while the first request is still running is 409; an abandoned claim is taken over after its timeout', async () => {
    const key = newKey();
    const marker = newMarker();
    const body = observation(clinic.maria, marker);
    expect((await post('Observation', clinic.chen, body, key)).status).toBe(201);
    // Make the stored row look like a request still in flight.
    await clinic.server.db.query(
      'UPDATE idempotency_key SET status = NULL, headers = NULL, body = NULL WHERE key = $1',
      [key],
    );
    const busy = await post('Observation', clinic.chen, body, key);
    expect(busy.status).toBe(409);
    expect(await stored(marker)).toBe(1);
    await clinic.server.db.query(
      "UPDATE idempotency_key SET created_at = now() - interval '10 minutes' WHERE key = $1",
      [key],
    );
    expect((await post('Observation', clinic.chen, body, key)).status).toBe(201);
    expect(await stored(marker)).toBe(2);
  });

  test('two identical requests at once write once: the other is a replay or a 409', async () => {
    const key = newKey();
    const marker = newMarker();
    const body = observation(clinic.maria, marker);
    const responses = await Promise.all([1, 2, 3].map(() => post('Observation', clinic.chen, body, key)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const ids = new Set(
      responses.filter((r) => r.status === 201).map((r) => (r.body as unknown as Observation).id),
    );
    expect(ids.size).toBe(1);
    expect(await stored(marker)).toBe(1);
  });

  test('PUT ignores the header (PUT is idempotent by itself)', async () => {
    const created = await post('Observation', clinic.chen, observation(clinic.maria, newMarker()));
    const resource = created.body as unknown as Observation;
    const key = newKey();
    const put = () =>
      call(clinic.server, 'PUT', `fhir/R4/Observation/${resource.id}`, clinic.chen, {
        body: resource,
        headers: { 'idempotency-key': key },
      });
    const first = await put();
    const second = await put();
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect((second.body as unknown as Observation).meta?.versionId).not.toBe(
      (first.body as unknown as Observation).meta?.versionId,
    );
  });
});
