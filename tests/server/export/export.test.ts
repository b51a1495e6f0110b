// Bulk export over real HTTP (SPEC §7 "POST {type}/$export or {group}/$export
// with _type, _since, Prefer respond-async"): every kick-off form, the status URL's 202 progress and
// 200 manifest, NDJSON files holding each visible resource exactly once, the requester's access
// rules (a patient exports her own record only), refusals as OperationOutcomes, and cancel. Small
// pages and files, so a few resources already span several of each. PGlite and PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import type { Bundle, Group, Observation, OperationOutcome, Resource } from '@medplum/fhirtypes';
import type { Tokens } from '../auth/support/auth-fixtures';
import { startExportClinic } from './export-clinic';
import { call as httpCall } from '../operations/support/clinic';
import type { HttpResponse } from '../operations/support/clinic';
import type { ExportClinic } from './export-clinic';
import { databases } from '../support/test-databases';

interface Manifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: { type: string; url: string; count: number }[];
  error: unknown[];
}

describe.each(databases())('issue #10 bulk export over HTTP (SPEC §7 $export) on %s', (_engine, kind) => {
  let clinic: ExportClinic;

  /** A request as `tokens`' caller; `url` is absolute or relative to the FHIR base. */
  function call<T = OperationOutcome>(
    method: string,
    url: string,
    tokens: Tokens,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<HttpResponse<T>> {
    const fhirPath = url.startsWith('http') ? url.slice(clinic.config.baseUrl.length) : `fhir/R4/${url}`;
    return httpCall<T>(clinic.config, method, fhirPath, tokens, { headers, body });
  }

  /** Kick-off with Prefer: respond-async; answers the status URL. */
  async function kickoff(tokens: Tokens, url: string, method = 'POST'): Promise<string> {
    const answer = await call(method, url, tokens, { prefer: 'respond-async' });
    expect(answer.status).toBe(202);
    const location = answer.headers.get('content-location') as string;
    expect(location).toMatch(/\/fhir\/R4\/bulkdata\/export\/[0-9a-f-]{36}$/);
    // Medplum's client also finds the status URL in the outcome's diagnostics.
    expect(answer.body.issue?.[0]).toMatchObject({ severity: 'information', diagnostics: location });
    return location;
  }

  /** Polls the status URL until it stops answering 202. */
  async function poll<T = Manifest>(tokens: Tokens, statusUrl: string): Promise<HttpResponse<T>> {
    for (;;) {
      const answer = await call<T>('GET', statusUrl, tokens);
      if (answer.status !== 202) return answer;
      expect(answer.headers.get('x-progress')).toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The resources of every output file, checking each line is one JSON resource of the file's type. */
  async function readOutput(tokens: Tokens, manifest: Manifest): Promise<Resource[]> {
    const resources: Resource[] = [];
    for (const file of manifest.output) {
      const answer = await call('GET', file.url, tokens);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/fhir\+ndjson/);
      const lines = answer.text.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(file.count);
      for (const line of lines) {
        const resource = JSON.parse(line) as Resource;
        expect(resource.resourceType).toBe(file.type);
        resources.push(resource);
      }
    }
    return resources;
  }

  async function exportAll(
    tokens: Tokens,
    url: string,
    method = 'POST',
  ): Promise<{ manifest: Manifest; resources: Resource[] }> {
    const done = await poll(tokens, await kickoff(tokens, url, method));
    expect(done.status).toBe(200);
    return { manifest: done.body, resources: await readOutput(tokens, done.body) };
  }

  /** Ids of everything a search shows `tokens` (paging through), the reference for "each resource once". */
  async function searchIds(tokens: Tokens, query: string): Promise<string[]> {
    const ids: string[] = [];
    let url: string | undefined = `${query}${query.includes('?') ? '&' : '?'}_count=1000`;
    while (url) {
      const page: HttpResponse<Bundle> = await call<Bundle>('GET', url, tokens);
      expect(page.status).toBe(200);
      ids.push(
        ...(page.body.entry ?? []).map((entry) => `${entry.resource?.resourceType}/${entry.resource?.id}`),
      );
      url = page.body.link?.find((link) => link.relation === 'next')?.url;
    }
    return ids.sort();
  }

  /** A Group of these Patient references, created by the practitioner. */
  async function createGroup(patients: string[]): Promise<Group> {
    const created = await call<Group>(
      'POST',
      'Group',
      clinic.chen,
      {},
      {
        resourceType: 'Group',
        type: 'person',
        actual: true,
        member: patients.map((reference) => ({ entity: { reference } })),
      },
    );
    expect(created.status).toBe(201);
    return created.body;
  }

  const keys = (resources: Resource[]) => resources.map((r) => `${r.resourceType}/${r.id}`).sort();
  const compartmentsOf = (resource: Resource) => (resource.meta?.compartment ?? []).map((c) => c.reference);
  const profileOf = (tokens: Tokens) => tokens.profile?.reference as string;

  beforeAll(async () => {
    clinic = await startExportClinic(kind, { pageSize: 3, fileSize: 7, leaseSeconds: 5 });
  }, 60_000);

  afterAll(async () => {
    await clinic?.close();
  });

  test('SPEC §7 POST $export: 202 + Content-Location, progress while running, the manifest when done, every visible resource once', async () => {
    const url = '$export?_type=Patient,Observation,Practitioner';
    const { manifest, resources } = await exportAll(clinic.chen, url);
    expect(manifest).toEqual({
      transactionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      request: clinic.server.fhirUrl + url,
      requiresAccessToken: true,
      output: expect.any(Array),
      error: [],
    });
    // Files of at most 7 resources: Observations span several.
    expect(manifest.output.every((file) => file.count >= 1 && file.count <= 7)).toBe(true);
    expect(manifest.output.filter((file) => file.type === 'Observation').length).toBeGreaterThan(1);
    expect(new Set(manifest.output.map((file) => file.type))).toEqual(
      new Set(['Patient', 'Observation', 'Practitioner']),
    );
    const expected = [
      ...(await searchIds(clinic.chen, 'Patient')),
      ...(await searchIds(clinic.chen, 'Observation')),
      ...(await searchIds(clinic.chen, 'Practitioner')),
    ].sort();
    expect(new Set(keys(resources)).size).toBe(resources.length);
    expect(keys(resources)).toEqual(expected);
  });

  test('SPEC §7 GET kick-off works as POST does; Observation/$export exports that type only', async () => {
    const viaGet = await exportAll(clinic.chen, '$export?_type=Practitioner', 'GET');
    expect(keys(viaGet.resources)).toEqual(await searchIds(clinic.chen, 'Practitioner'));
    const typeLevel = await exportAll(clinic.chen, 'Observation/$export');
    expect(new Set(typeLevel.manifest.output.map((file) => file.type))).toEqual(new Set(['Observation']));
    expect(keys(typeLevel.resources)).toEqual(await searchIds(clinic.chen, 'Observation'));
  });

  test('SPEC §7 Patient/$export exports what lies in Patient compartments, nothing else', async () => {
    const { resources } = await exportAll(clinic.chen, 'Patient/$export');
    const types = new Set(resources.map((r) => r.resourceType));
    expect(types.has('Patient')).toBe(true);
    expect(types.has('Observation')).toBe(true);
    expect(types.has('Practitioner')).toBe(false);
    expect(resources.every((r) => compartmentsOf(r).length > 0)).toBe(true);
    const observations = resources.filter((r) => r.resourceType === 'Observation');
    expect(keys(observations)).toEqual(await searchIds(clinic.chen, 'Observation'));
  });

  test('SPEC §7 Group/{id}/$export exports its member patients only', async () => {
    const group = await createGroup([profileOf(clinic.maria)]);
    const { resources } = await exportAll(clinic.chen, `Group/${group.id}/$export?_type=Patient,Observation`);
    expect(keys(resources.filter((r) => r.resourceType === 'Patient'))).toEqual([profileOf(clinic.maria)]);
    const hers = await searchIds(clinic.chen, `Observation?_compartment=${profileOf(clinic.maria)}`);
    expect(hers.length).toBeGreaterThan(0);
    expect(keys(resources.filter((r) => r.resourceType === 'Observation'))).toEqual(hers);
  });

  test('SPEC §7 _since keeps only resources changed after it', async () => {
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const created = await call<Observation>(
      'POST',
      'Observation',
      clinic.chen,
      {},
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'Exported since' },
        subject: { reference: profileOf(clinic.maria) },
      },
    );
    expect(created.status).toBe(201);
    const { resources } = await exportAll(
      clinic.chen,
      `$export?_type=Observation,Patient&_since=${encodeURIComponent(before)}`,
    );
    expect(keys(resources)).toEqual([`Observation/${created.body.id}`]);
  });

  test('SPEC §6 a patient exports only her own record: $export, Patient/$export; another patient named is refused', async () => {
    const maria = profileOf(clinic.maria);
    const aisha = profileOf(clinic.aisha);
    const system = await exportAll(clinic.maria, '$export');
    expect(system.resources.some((r) => `${r.resourceType}/${r.id}` === maria)).toBe(true);
    for (const resource of system.resources) {
      const compartments = compartmentsOf(resource);
      // Her compartment, or a type her policy grants project-wide (practitioners, slots…).
      expect(compartments.length === 0 || compartments.includes(maria)).toBe(true);
      expect(`${resource.resourceType}/${resource.id}`).not.toBe(aisha);
    }
    expect(keys(system.resources.filter((r) => r.resourceType === 'Observation'))).toEqual(
      await searchIds(clinic.maria, 'Observation'),
    );
    const patientLevel = await exportAll(clinic.maria, 'Patient/$export');
    expect(patientLevel.resources.length).toBeGreaterThan(0);
    expect(patientLevel.resources.every((r) => compartmentsOf(r).includes(maria))).toBe(true);
    const refused = await call('POST', `Patient/$export?patient=${aisha}`, clinic.maria, {
      prefer: 'respond-async',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.issue?.[0]?.details?.text).toContain(aisha);
    // Types her policy does not grant export nothing; a Group she may not read is a 404, as a read is.
    const hidden = await exportAll(clinic.maria, '$export?_type=ProjectMembership,User,Observation');
    expect(new Set(hidden.resources.map((r) => r.resourceType))).toEqual(new Set(['Observation']));
    const group = await createGroup([maria, aisha]);
    const groupExport = await call('POST', `Group/${group.id}/$export`, clinic.maria, {
      prefer: 'respond-async',
    });
    expect(groupExport.status).toBe(404);
    // A practitioner may name her: only her data comes back.
    const named = await exportAll(clinic.chen, `Patient/$export?patient=${aisha}&_type=Patient,Observation`);
    expect(named.resources.length).toBeGreaterThan(0);
    expect(named.resources.every((r) => compartmentsOf(r).includes(aisha))).toBe(true);
  });

  test('SPEC §6 jobs and files belong to their requester: others get 404 for the status URL, the file, and DELETE', async () => {
    const statusUrl = await kickoff(clinic.chen, '$export?_type=Practitioner');
    const done = await poll(clinic.chen, statusUrl);
    const fileUrl = done.body.output[0].url;
    for (const other of [clinic.otherAdmin, clinic.maria, clinic.admin]) {
      expect((await call('GET', statusUrl, other)).status).toBe(404);
      expect((await call('GET', fileUrl, other)).status).toBe(404);
      expect((await call('DELETE', statusUrl, other)).status).toBe(404);
    }
    // The file's Binary is outside the project: the REST API does not serve it either.
    const binaryId = fileUrl.split('/').pop() as string;
    expect((await call('GET', `Binary/${binaryId}`, clinic.admin)).status).toBe(404);
    expect((await call('GET', fileUrl, clinic.chen)).status).toBe(200);
  });

  test('SPEC §8 bad kick-offs are 400/403/404 OperationOutcomes naming the problem, and start no job', async () => {
    const cases: [string, Record<string, string>, number, RegExp][] = [
      ['$export', {}, 400, /Prefer: respond-async/],
      ['$export?_type=Patient,Nonsense', { prefer: 'respond-async' }, 400, /Nonsense/],
      ['$export?_since=yesterday', { prefer: 'respond-async' }, 400, /_since/],
      ['$export?_since=2024-01-01', { prefer: 'respond-async' }, 400, /instant/],
      ['$export?_outputFormat=text/csv', { prefer: 'respond-async' }, 400, /_outputFormat/],
      ['$export?_typeFilter=Patient%3Factive%3Dtrue', { prefer: 'respond-async' }, 400, /_typeFilter/],
      ['$export?colour=blue', { prefer: 'respond-async' }, 400, /colour/],
      ['$export?patient=Patient/x', { prefer: 'respond-async' }, 400, /patient/],
      ['Observation/$export?_type=Patient', { prefer: 'respond-async' }, 400, /_type/],
      ['Nonsense/$export', { prefer: 'respond-async' }, 404, /Nonsense/],
      ['Group/no-such-group/$export', { prefer: 'respond-async' }, 404, /Not found/],
    ];
    const before = await clinic.db.query<{ n: number }>('SELECT count(*)::int AS n FROM export_job');
    for (const [url, headers, status, text] of cases) {
      const answer = await call('POST', url, clinic.chen, headers);
      expect([url, answer.status]).toEqual([url, status]);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(JSON.stringify(answer.body.issue)).toMatch(text);
    }
    const after = await clinic.db.query<{ n: number }>('SELECT count(*)::int AS n FROM export_job');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    // _outputFormat abbreviations Bulk Data says a server SHALL accept.
    const ndjson = await call('POST', '$export?_type=Practitioner&_outputFormat=ndjson', clinic.chen, {
      prefer: 'respond-async',
    });
    expect(ndjson.status).toBe(202);
    // Unknown job ids.
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-job']) {
      const answer = await call('GET', `bulkdata/export/${id}`, clinic.chen);
      expect(answer.status).toBe(404);
      expect(answer.body.resourceType).toBe('OperationOutcome');
    }
  });

  test('SPEC §7 a Parameters body gives the kick-off parameters (Bulk Data 2.0 POST)', async () => {
    const answer = await call(
      'POST',
      '$export',
      clinic.chen,
      { prefer: 'respond-async' },
      { resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Practitioner' }] },
    );
    expect(answer.status).toBe(202);
    const done = await poll(clinic.chen, answer.headers.get('content-location') as string);
    expect(new Set(done.body.output.map((file) => file.type))).toEqual(new Set(['Practitioner']));
  });

  test('SPEC §7 DELETE on the status URL cancels: 202, then the status URL and files answer 404', async () => {
    const running = await kickoff(clinic.chen, '$export');
    const cancelled = await call('DELETE', running, clinic.chen);
    expect(cancelled.status).toBe(202);
    const after = await call('GET', running, clinic.chen);
    expect(after.status).toBe(404);
    expect(after.body.resourceType).toBe('OperationOutcome');
    expect((await call('DELETE', running, clinic.chen)).status).toBe(404);
    // A completed export deleted by its requester: its files are gone too.
    const completed = await kickoff(clinic.chen, '$export?_type=Practitioner');
    const manifest = (await poll(clinic.chen, completed)).body;
    expect((await call('DELETE', completed, clinic.chen)).status).toBe(202);
    expect((await call('GET', manifest.output[0].url, clinic.chen)).status).toBe(404);
    // The cancelled job stays cancelled: no runner brings it back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { rows } = await clinic.db.query<{ status: string }>(
      'SELECT status FROM export_job WHERE id = $1',
      [running.split('/').pop() as string],
    );
    expect(rows[0].status).toBe('cancelled');
  });

  test('SPEC §7 a finished export is kept for its retention (24 h), then its job, files and Binaries go', async () => {
    const old = await kickoff(clinic.chen, '$export?_type=Practitioner');
    const manifest = (await poll(clinic.chen, old)).body;
    const binaryId = manifest.output[0].url.split('/').pop() as string;
    const stored = path.join(clinic.binaryDir, binaryId.slice(0, 2), binaryId);
    expect(fs.existsSync(stored)).toBe(true);
    await clinic.db.query(`UPDATE export_job SET updated = now() - interval '25 hours' WHERE id = $1`, [
      old.split('/').pop() as string,
    ]);
    // Any later run of the runner sweeps it.
    await poll(clinic.chen, await kickoff(clinic.chen, '$export?_type=Practitioner'));
    let status = 200;
    for (let i = 0; i < 100 && status !== 404; i++) {
      status = (await call('GET', old, clinic.chen)).status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(404);
    expect((await call('GET', manifest.output[0].url, clinic.chen)).status).toBe(404);
    expect(fs.existsSync(stored)).toBe(false);
    const { rows } = await clinic.db.query<{ deleted: boolean }>(
      `SELECT deleted FROM resource WHERE resource_type = 'Binary' AND id = $1`,
      [binaryId],
    );
    expect(rows[0].deleted).toBe(true);
  });
});
