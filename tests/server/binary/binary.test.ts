// Binary over real HTTP (SPEC §7 "POST Binary?_filename with raw body"): upload with the
// content type kept, download as bytes or as FHIR JSON, the size limit, refused input, contents on
// disk under BINARY_DIR, and signed expiring storage URLs usable without a header (valid, expired,
// tampered, for another Binary).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Binary } from '@medplum/fhirtypes';
import { signBinaryUrl } from '../../../src/server/binary/signed-url';
import { SigningKeys } from '../../../src/server/auth/signing-key';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const LIMIT = 4096;

describe.each(databases())('issue #8 Binary on %s', (_engine, kind) => {
  let server: TestServer;
  let dir: string;
  const png = crypto.randomBytes(1500);

  async function upload(bytes: Uint8Array, contentType?: string, query = '') {
    const body = new Uint8Array(bytes);
    const response = await fetch(`${server.fhirUrl}Binary${query}`, {
      method: 'POST',
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Binary & { issue?: { details?: { text?: string } }[] },
    };
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-binary-'));
    server = await startTestServer(kind, { BINARY_DIR: dir, BINARY_MAX_SIZE: String(LIMIT) });
  });

  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('POST Binary?_filename stores the raw body and keeps its content type; GET returns the bytes', async () => {
    const created = await upload(png, 'image/png', '?_filename=scan%201.png');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ resourceType: 'Binary', contentType: 'image/png' });
    const id = created.body.id as string;
    expect(created.headers.get('location')).toMatch(new RegExp(`Binary/${id}/_history/`));
    expect(fs.readFileSync(path.join(dir, id.slice(0, 2), id))).toEqual(png);

    const download = await fetch(`${server.fhirUrl}Binary/${id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''scan%201.png");
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(png);
  });

  test('GET Binary/{id} with Accept: application/fhir+json answers the FHIR JSON form with base64 data', async () => {
    const text = Buffer.from('hello, clinic');
    const created = await upload(text, 'text/plain; charset=utf-8');
    const response = await fetch(`${server.fhirUrl}Binary/${created.body.id}`, {
      headers: { accept: 'application/fhir+json' },
    });
    expect(response.headers.get('content-type')).toMatch(/application\/fhir\+json/);
    const json = (await response.json()) as Binary;
    expect(json).toMatchObject({
      resourceType: 'Binary',
      id: created.body.id,
      contentType: 'text/plain; charset=utf-8',
    });
    expect(Buffer.from(json.data as string, 'base64')).toEqual(text);
    expect(json.url).toMatch(/\/storage\//);
  });

  test('bodies over BINARY_MAX_SIZE are refused with 413, declared or streamed', async () => {
    const declared = await upload(crypto.randomBytes(LIMIT + 1), 'application/pdf');
    expect(declared.status).toBe(413);
    expect(declared.body.issue?.[0]?.details?.text).toContain(String(LIMIT));
    // Chunked, without Content-Length: the limit applies while reading.
    const chunks = [crypto.randomBytes(3000), crypto.randomBytes(3000)];
    const stream = new ReadableStream({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const response = await fetch(`${server.fhirUrl}Binary`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  test('wrong input is refused: no content type 400, a malformed one 415, empty body and a file name with a slash 400', async () => {
    expect((await upload(png)).status).toBe(400);
    expect((await upload(png, 'not a type')).status).toBe(415);
    expect((await upload(Buffer.alloc(0), 'image/png')).status).toBe(400);
    expect((await upload(png, 'image/png', '?_filename=..%2Fescape.png')).status).toBe(400);
  });

  test('an unknown Binary is 404', async () => {
    expect((await fetch(`${server.fhirUrl}Binary/${crypto.randomUUID()}`)).status).toBe(404);
  });

  test('the signed url works without a header and across origins; tampered, foreign or expired ones are 403', async () => {
    const created = await upload(png, 'image/png');
    const url = created.body.url as string;
    expect(url.startsWith(`${server.baseUrl}storage/${created.body.id}?Expires=`)).toBe(true);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(Buffer.from(await ok.arrayBuffer())).toEqual(png);

    const signature = new URL(url).searchParams.get('Signature') as string;
    const flipped = signature.slice(0, -3) + (signature.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await fetch(url.replace(signature, flipped))).status).toBe(403);
    expect((await fetch(url.split('?')[0])).status).toBe(403);
    // A signature for one Binary does not open another.
    const other = await upload(Buffer.from('other'), 'text/plain');
    expect((await fetch(url.replace(created.body.id as string, other.body.id as string))).status).toBe(403);
    // Expired.
    const keys = new SigningKeys(server.db, server.config.baseUrl);
    const expired = await signBinaryUrl(keys, server.baseUrl, created.body.id as string, -60);
    expect((await fetch(expired)).status).toBe(403);
    const fresh = await signBinaryUrl(keys, server.baseUrl, created.body.id as string, 60);
    expect((await fetch(fresh)).status).toBe(200);
  });
});
