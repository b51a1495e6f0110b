// A failing database: the client gets a 500 'Internal server error' OperationOutcome without
// internals, and the healthcheck says the server is not healthy (SPEC §8 exception).
import type { OperationOutcome } from '@medplum/fhirtypes';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db';
import { findTestPort } from '../support/test-port';
import { systemContext } from '../../src/server/repo';

const SECRET = 'relation "secret_table" does not exist at /srv/internal/path.ts';

const brokenDatabase: Database = {
  engine: 'postgres',
  async query() {
    throw new Error(SECRET);
  },
  async transaction() {
    throw new Error(SECRET);
  },
  async close() {},
};

describe('server errors', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    const port = await findTestPort('localhost');
    app = await buildServer({
      config: loadConfig({ PORT: String(port), LOG_LEVEL: 'silent' }),
      db: brokenDatabase,
      // No token check: the request must reach the (broken) database.
      getContext: () => systemContext(),
    });
    await app.listen({ port, host: 'localhost' });
    url = `http://localhost:${port}/`;
  });

  afterAll(async () => {
    await app.close();
  });

  test('an unexpected failure is a 500 OperationOutcome saying Internal server error, with no internals', async () => {
    for (const [method, path, body] of [
      ['GET', 'fhir/R4/Patient/123', undefined],
      ['POST', 'fhir/R4/Patient', JSON.stringify({ resourceType: 'Patient' })],
    ] as const) {
      const response = await fetch(url + path, {
        method,
        body,
        headers: body ? { 'content-type': 'application/fhir+json' } : {},
      });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
      const text = await response.text();
      const outcome = JSON.parse(text) as OperationOutcome;
      expect(outcome.issue?.[0]).toEqual({
        severity: 'error',
        code: 'exception',
        details: { text: 'Internal server error' },
      });
      expect(text).not.toContain('secret_table');
      expect(text).not.toContain('/srv/internal');
    }
  });

  test('the healthcheck answers 503 when the database does not', async () => {
    const response = await fetch(`${url}healthcheck`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, database: 'postgres' });
  });
});
