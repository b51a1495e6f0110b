// A bulk export job outlives its server (a job interrupted by a restart is resumed or marked failed,
// never left pending for ever): a server stopped mid-export gives its
// job back and the next server on the same database finishes it from the last stored file; a job
// held by a crashed server is taken over once its lease runs out; a job interrupted too often
// fails with an OperationOutcome. Real HTTP, PGlite and PostgreSQL.
import type { Observation, Resource } from '@medplum/fhirtypes';
import { Repository, systemContext } from '../../../src/server/repo';
import type { Tokens } from '../auth/support/auth-fixtures';
import { startExportClinic, startExportServer } from './export-clinic';
import type { ExportClinic } from './export-clinic';
import { databases } from '../support/test-databases';

const OBSERVATIONS = 400;
const SETTINGS = { pageSize: 10, fileSize: 20, leaseSeconds: 1, maxAttempts: 3 };

interface Manifest {
  output: { type: string; url: string; count: number }[];
}

interface JobRow {
  status: string;
  exported: string | number;
  lease_owner: string | null;
  attempts: number;
}

describe.each(databases())('issue #10 bulk export across restarts on %s', (_engine, kind) => {
  let clinic: ExportClinic;
  let observationIds: string[];

  async function call(method: string, url: string, tokens: Tokens, headers: Record<string, string> = {}) {
    const response = await fetch(url.startsWith('http') ? url : clinic.server.fhirUrl + url, {
      method,
      headers: { authorization: `Bearer ${tokens.access_token}`, ...headers },
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  }

  async function job(statusUrl: string): Promise<JobRow> {
    const { rows } = await clinic.db.query<JobRow>(
      'SELECT status, exported, lease_owner, attempts FROM export_job WHERE id = $1',
      [statusUrl.split('/').pop() as string],
    );
    return rows[0];
  }

  async function poll(statusUrl: string, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await call('GET', statusUrl, clinic.chen);
      if (answer.status !== 202 || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function exportedIds(manifest: Manifest): Promise<string[]> {
    const ids: string[] = [];
    for (const file of manifest.output) {
      const answer = await call('GET', file.url, clinic.chen);
      expect(answer.status).toBe(200);
      ids.push(
        ...answer.text
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as Resource).id as string),
      );
    }
    return ids.sort();
  }

  async function kickoff(): Promise<string> {
    const answer = await call('POST', 'Observation/$export', clinic.chen, { prefer: 'respond-async' });
    expect(answer.status).toBe(202);
    return answer.headers.get('content-location') as string;
  }

  /** Stops the server and starts a new one on the same database and port. */
  async function restart(beforeStart?: () => Promise<void>): Promise<void> {
    await clinic.server.stop();
    await beforeStart?.();
    clinic.server = await startExportServer(clinic.db, clinic.config, SETTINGS);
  }

  beforeAll(async () => {
    clinic = await startExportClinic(kind, SETTINGS);
    const project = (clinic.admin.project?.reference as string).split('/')[1];
    const subject = { reference: clinic.maria.profile?.reference as string };
    // Many resources in one transaction: the export must span many pages and files.
    await new Repository(clinic.db, systemContext(project)).withTransaction(async (repo) => {
      for (let i = 0; i < OBSERVATIONS; i++) {
        await repo.createResource<Observation>({
          resourceType: 'Observation',
          status: 'final',
          code: { text: `Restart test ${i}` },
          subject,
        });
      }
    });
    const { rows } = await clinic.db.query<{ id: string }>(
      `SELECT id FROM resource WHERE resource_type = 'Observation' AND NOT deleted AND project = $1`,
      [project],
    );
    observationIds = rows.map((row) => row.id).sort();
    expect(observationIds.length).toBeGreaterThanOrEqual(OBSERVATIONS);
  }, 120_000);

  afterAll(async () => {
    await clinic?.close();
  });

  test('a server stopped mid-export gives the job back; the next server resumes it and every resource is exported once', async () => {
    const statusUrl = await kickoff();
    // Wait for the first stored file, then stop the server mid-way.
    while (Number((await job(statusUrl)).exported) === 0) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    let stopped: JobRow | undefined;
    await restart(async () => {
      stopped = await job(statusUrl);
    });
    expect(stopped).toMatchObject({ status: 'in-progress', lease_owner: null });
    expect(Number(stopped?.exported)).toBeGreaterThan(0);
    expect(Number(stopped?.exported)).toBeLessThan(observationIds.length);
    const done = await poll(statusUrl);
    expect(done.status).toBe(200);
    const manifest = JSON.parse(done.text) as Manifest;
    expect(manifest.output.every((file) => file.count <= SETTINGS.fileSize)).toBe(true);
    expect(await exportedIds(manifest)).toEqual(observationIds);
  }, 60_000);

  test('a job held by a crashed server answers 202 with X-Progress, then is taken over when its lease runs out', async () => {
    const statusUrl = await kickoff();
    await restart(async () => {
      // As a crashed runner leaves it: in progress, its lease still running.
      await clinic.db.query(
        `UPDATE export_job SET status = 'in-progress', lease_owner = 'crashed-runner',
           lease_until = now() + interval '2 seconds' WHERE id = $1`,
        [statusUrl.split('/').pop() as string],
      );
    });
    const waiting = await call('GET', statusUrl, clinic.chen, { origin: 'http://localhost:3000' });
    expect(waiting.status).toBe(202);
    // The app, on another origin, may read the progress.
    expect(waiting.headers.get('access-control-expose-headers')).toMatch(/X-Progress/);
    expect(waiting.headers.get('x-progress')).toMatch(
      /resources exported; exporting Observation \(type 1 of 1\)/,
    );
    const done = await poll(statusUrl);
    expect(done.status).toBe(200);
    expect(await exportedIds(JSON.parse(done.text) as Manifest)).toEqual(observationIds);
  }, 60_000);

  test('a job interrupted more times than allowed fails: the status URL answers 500 with an OperationOutcome', async () => {
    const statusUrl = await kickoff();
    await restart(async () => {
      await clinic.db.query(
        `UPDATE export_job SET status = 'in-progress', lease_owner = NULL, lease_until = NULL, attempts = $2
         WHERE id = $1`,
        [statusUrl.split('/').pop() as string, SETTINGS.maxAttempts],
      );
    });
    const failed = await poll(statusUrl);
    expect(failed.status).toBe(500);
    const outcome = JSON.parse(failed.text) as {
      resourceType: string;
      issue: { details: { text: string } }[];
    };
    expect(outcome.resourceType).toBe('OperationOutcome');
    expect(outcome.issue[0].details.text).toMatch(/interrupted 3 times/);
    expect((await job(statusUrl)).status).toBe('error');
  }, 60_000);
});
