// A bulk export's NDJSON files over real HTTP (SPEC §7 $export, REST API delivery): sent brotli- or
// gzip-compressed when the client accepts it (Content-Encoding, Vary: Accept-Encoding, no stale
// Content-Length), the decoded bytes equal to the file sent uncompressed, and sent as stored when the
// client accepts no compression. PGlite and PostgreSQL.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Tokens } from '../auth/support/auth-fixtures';
import { call } from '../operations/support/clinic';
import { databases } from '../support/test-databases';
import { startExportClinic, type ExportClinic } from './export-clinic';
import { rawGet, type RawResponse } from '../support/raw-get';

describe.each(databases())('bulk export NDJSON compression (SPEC §7 $export) on %s', (_engine, kind) => {
  let clinic: ExportClinic;
  let fileUrl: string;

  const auth = (tokens: Tokens) => ({ authorization: `Bearer ${tokens.access_token}` });

  beforeAll(async () => {
    // One file large enough to be worth compressing: every Observation of the clinic in one file.
    clinic = await startExportClinic(kind, { pageSize: 50, fileSize: 10_000, leaseSeconds: 5 });
    const kickoff = await call(clinic.config, 'POST', 'fhir/R4/$export?_type=Observation', clinic.chen, {
      headers: { prefer: 'respond-async' },
    });
    expect(kickoff.status).toBe(202);
    const statusUrl = kickoff.headers.get('content-location') as string;
    for (;;) {
      const status = await call<{ output: { url: string }[] }>(
        clinic.config,
        'GET',
        statusUrl.slice(clinic.config.baseUrl.length),
        clinic.chen,
      );
      if (status.status === 200) {
        expect(status.body.output).toHaveLength(1);
        fileUrl = status.body.output[0].url;
        break;
      }
      expect(status.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 60_000);

  afterAll(async () => {
    await clinic?.close();
  });

  async function plainFile(): Promise<RawResponse> {
    const plain = await rawGet(fileUrl, { ...auth(clinic.chen), 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    return plain;
  }

  test('with Accept-Encoding br: brotli, Vary, no Content-Length of the stored file, the same lines decoded', async () => {
    const plain = await plainFile();
    // Sanity: the file holds real lines, and is over the compression threshold.
    expect(plain.body.length).toBeGreaterThan(4096);
    const lines = plain.body.toString().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.map((line) => (JSON.parse(line) as { resourceType: string }).resourceType)).toEqual(
      lines.map(() => 'Observation'),
    );
    const br = await rawGet(fileUrl, { ...auth(clinic.chen), 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/fhir\+ndjson/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // The stored file's length would be wrong for the compressed body.
    expect(br.headers['content-length']).not.toBe(String(plain.body.length));
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  test('with Accept-Encoding gzip only: gzip, the same lines decoded', async () => {
    const plain = await plainFile();
    const gzip = await rawGet(fileUrl, { ...auth(clinic.chen), 'accept-encoding': 'gzip' });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  });

  test('without Accept-Encoding, or with identity only: sent as stored, with its Content-Length', async () => {
    const plain = await plainFile();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(plain.body.length));
    const none = await rawGet(fileUrl, auth(clinic.chen));
    expect(none.status).toBe(200);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.equals(plain.body)).toBe(true);
  });

  test('a caller who may not read the export gets no file, compressed or not', async () => {
    const other = await rawGet(fileUrl, { ...auth(clinic.maria), 'accept-encoding': 'br' });
    expect(other.status).toBe(404);
    expect(other.headers['content-encoding']).not.toBe('br');
    expect(JSON.parse(other.body.toString())).toMatchObject({ resourceType: 'OperationOutcome' });
  });
});
