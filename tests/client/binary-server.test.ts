// createBinary and createAttachment through the REAL platform client against the real server's Binary
// endpoint (SPEC §7 "POST Binary?_filename with raw body"): the bytes and content type arrive, Node upload
// progress is reported, the Attachment points at a signed URL that serves the bytes without a header, and a
// refused upload rejects with the server's outcome. Signed in as the demo practitioner (a patient's own
// uploads are tested in tests/server/binary/message-attachments.test.ts). PGlite always, PostgreSQL too with
// TEST_DATABASE_URL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BloomClient } from '../../src/client';
import { getStatus, OperationOutcomeError } from '../../src/fhir/outcomes';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';
import { signedInClient } from './support/server-sign-in';

const LIMIT = 64 * 1024;

describe.each(databases())('BloomClient Binary calls against the real server on %s', (_engine, kind) => {
  let server: TestServer;
  let dir: string;
  let client: BloomClient;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-client-binary-'));
    server = await startTestServer(
      kind,
      { BINARY_DIR: dir, BINARY_MAX_SIZE: String(LIMIT) },
      { requireAuth: true },
    );
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
    client = await signedInClient(server.baseUrl, 'dr.chen@bloom.example');
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('createBinary uploads the raw bytes with their content type and reports progress', async () => {
    const bytes = crypto.randomBytes(20_000);
    const progress: number[] = [];
    const binary = await client.createBinary({
      data: new Uint8Array(bytes),
      filename: 'scan.png',
      contentType: 'image/png',
      onProgress: (event) => progress.push(event.loaded),
    });
    expect(binary).toMatchObject({ resourceType: 'Binary', contentType: 'image/png' });
    expect(progress.at(-1)).toBe(bytes.length);

    const download = await fetch(`${server.fhirUrl}Binary/${binary.id}`, {
      headers: { authorization: `Bearer ${client.getAccessToken()}` },
    });
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  test('createAttachment returns an Attachment whose URL serves the bytes without a header', async () => {
    const text = 'Blood pressure diary, week 32';
    const attachment = await client.createAttachment({
      data: text,
      filename: 'diary.txt',
      contentType: 'text/plain',
    });
    expect(attachment).toMatchObject({ contentType: 'text/plain', title: 'diary.txt' });
    const served = await fetch(attachment.url as string);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(text);
  });

  test('an upload over the size limit rejects with the server outcome (413) and stores nothing', async () => {
    const before = fs.readdirSync(dir, { recursive: true }).length;
    const failure = await client
      .createBinary(new Uint8Array(LIMIT + 1), 'big.bin', 'application/octet-stream')
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failure).toBeInstanceOf(OperationOutcomeError);
    expect(getStatus((failure as OperationOutcomeError).outcome)).toBe(413);
    expect(fs.readdirSync(dir, { recursive: true }).length).toBe(before);
  });
});
