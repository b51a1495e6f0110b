// The API's answers over real HTTP: compressed (brotli, else gzip) when the client accepts it and the
// answer is over the threshold, with Vary: Accept-Encoding; FHIR answers carrying health data are
// Cache-Control: no-store, as Medplum's server sends them; Binary downloads go as stored, also when a
// Range is asked (SPEC §7 REST API, Binary).
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import type { FastifyInstance } from 'fastify';
import { COMPRESSION_THRESHOLD } from '../../src/server/api-delivery';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db';
import { findTestPort } from '../support/test-port';
import { systemContext } from '../../src/server/repo';
import { databases } from './support/test-databases';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with exactly the headers given (fetch would add and undo Accept-Encoding itself). */
function request(
  url: string,
  headers: Record<string, string>,
  options: { method?: string; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function decoded(response: RawResponse): string {
  switch (response.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(response.body).toString();
    case 'gzip':
      return gunzipSync(response.body).toString();
    default:
      return response.body.toString();
  }
}

describe.each(databases())('API delivery on %s', (_engine, kind) => {
  let db: Database;
  let app: FastifyInstance;
  let fhir: string;
  let patientId: string;

  beforeAll(async () => {
    db = await kind.open();
    const port = await findTestPort('localhost');
    app = await buildServer({
      config: loadConfig({ PORT: String(port), LOG_LEVEL: 'silent' }),
      db,
      // Headers are under test here; access control has its own suites.
      getContext: () => systemContext(),
    });
    await app.listen({ port, host: 'localhost' });
    fhir = `http://localhost:${port}/fhir/R4/`;
    const json = { 'content-type': 'application/fhir+json' };
    const patient: Patient = { resourceType: 'Patient', name: [{ given: ['Maria'], family: 'Garcia' }] };
    patientId = (
      JSON.parse(
        decoded(await request(`${fhir}Patient`, json, { method: 'POST', body: JSON.stringify(patient) })),
      ) as Patient
    ).id as string;
    for (let i = 0; i < 12; i++) {
      const observation: Observation = {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '29463-7', display: 'Body weight' }] },
        subject: { reference: `Patient/${patientId}` },
        effectiveDateTime: `2026-0${1 + (i % 9)}-1${i % 10}T09:00:00Z`,
        valueQuantity: { value: 60 + i, unit: 'kg', system: 'http://unitsofmeasure.org', code: 'kg' },
      };
      await request(`${fhir}Observation`, json, { method: 'POST', body: JSON.stringify(observation) });
    }
  });

  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const search = () => `${fhir}Observation?subject=Patient/${patientId}&_sort=-date`;

  test('a search answer comes as brotli when accepted, with Vary, no-store, and decodes to the Bundle', async () => {
    const response = await request(search(), { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const bundle = JSON.parse(decoded(response)) as Bundle;
    expect(bundle.entry).toHaveLength(12);
    const plain = await request(search(), {});
    expect(response.body.length).toBeLessThan(plain.body.length / 3);
  });

  test('gzip for a client without brotli; as it is for a client accepting neither', async () => {
    const gzip = await request(search(), { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(decoded(gzip)) as Bundle).entry).toHaveLength(12);
    const refusals: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of refusals) {
      const plain = await request(search(), headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect((JSON.parse(plain.body.toString()) as Bundle).entry).toHaveLength(12);
      expect(plain.headers['cache-control']).toBe('no-store');
    }
  });

  test('a read by id is no-store; under the threshold it goes uncompressed', async () => {
    const response = await request(`${fhir}Patient/${patientId}`, { 'accept-encoding': 'br, gzip' });
    expect(response.status).toBe(200);
    expect(response.body.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect((JSON.parse(response.body.toString()) as Patient).id).toBe(patientId);
  });

  test('$graphql answers are compressed and no-store; errors (OperationOutcome) are no-store too', async () => {
    const query = `{ ObservationList(subject: "Patient/${patientId}") { id code { text coding { system code display } } valueQuantity { value unit } effectiveDateTime } }`;
    const response = await request(
      `${fhir}$graphql`,
      { 'accept-encoding': 'br', 'content-type': 'application/json' },
      { method: 'POST', body: JSON.stringify({ query }) },
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = JSON.parse(decoded(response)) as { data: { ObservationList: unknown[] } };
    expect(answer.data.ObservationList).toHaveLength(12);
    const missing = await request(`${fhir}Patient/00000000-0000-4000-8000-000000000000`, {});
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  test('a Binary download goes as stored (not re-encoded), whole or for a Range', async () => {
    const bytes = Buffer.alloc(8192, 'bloom-');
    const created = await request(
      `${fhir}Binary`,
      { 'content-type': 'application/octet-stream' },
      { method: 'POST', body: bytes.toString() },
    );
    expect(created.status).toBe(201);
    const id = (JSON.parse(decoded(created)) as { id: string }).id;
    const whole = await request(`${fhir}Binary/${id}`, { 'accept-encoding': 'br, gzip', accept: '*/*' });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.body.equals(bytes)).toBe(true);
    const ranged = await request(`${fhir}Binary/${id}`, {
      'accept-encoding': 'br, gzip',
      accept: '*/*',
      range: 'bytes=0-99',
    });
    expect(ranged.headers['content-encoding']).toBeUndefined();
    if (ranged.status === 206) {
      expect(ranged.body.equals(bytes.subarray(0, 100))).toBe(true);
    } else {
      expect(ranged.status).toBe(200);
      expect(ranged.body.equals(bytes)).toBe(true);
    }
  });

  test('answers outside /fhir/R4 keep their own caching (the healthcheck is not no-store by this rule)', async () => {
    const health = await request(fhir.replace('fhir/R4/', 'healthcheck'), { 'accept-encoding': 'br' });
    expect(health.status).toBe(200);
    expect(health.headers['cache-control']).not.toBe('no-store');
  });
});
