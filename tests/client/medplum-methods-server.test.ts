// The MedplumClient methods the platform client gained (download,
// readCanonical, createMedia, createDocumentReference, createComment) and the key-value rules,
// against the REAL server in-process over HTTP, with the demo clinic seeded. PGlite always,
// PostgreSQL too with TEST_DATABASE_URL.
import type { Binary, Communication, Patient, Questionnaire } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';
import { signedInClient } from './support/server-sign-in';

describe.each(databases())('issue #20 client methods against the real server on %s', (_engine, kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
  });

  afterAll(async () => {
    await server?.close();
  });

  const signIn = (email: string): Promise<BloomClient> => signedInClient(server.baseUrl, email);

  async function mariaOf(admin: BloomClient): Promise<Patient> {
    const maria = await admin.searchOne<Patient>('Patient', { name: 'Maria' });
    if (!maria) throw new Error('the demo clinic has no Maria');
    return maria;
  }

  test('readCanonical finds a Questionnaire by url, alone or among several types; an unknown url is undefined', async () => {
    const admin = await signIn('admin@bloom.example');
    const url = 'https://bloom.example/fhir/Questionnaire/intake-issue-20';
    const stored = await admin.createResource<Questionnaire>({
      resourceType: 'Questionnaire',
      status: 'active',
      url,
    });
    await expect(admin.readCanonical('Questionnaire', url)).resolves.toMatchObject({
      id: stored.id,
    });
    await expect(admin.readCanonical(['StructureDefinition', 'Questionnaire'], url)).resolves.toMatchObject({
      id: stored.id,
      resourceType: 'Questionnaire',
    });
    await expect(admin.readCanonical('Questionnaire', `${url}-missing`)).resolves.toBeUndefined();
  });

  test('createMedia uploads under the Media (its security context) and completes it; download gives the bytes back', async () => {
    const admin = await signIn('admin@bloom.example');
    const maria = await mariaOf(admin);
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 250]);
    const media = await admin.createMedia({
      data: bytes,
      contentType: 'image/png',
      filename: 'scan.png',
      additionalFields: { subject: { reference: `Patient/${maria.id}` } },
    });
    expect(media).toMatchObject({
      status: 'completed',
      content: { contentType: 'image/png', title: 'scan.png' },
    });
    const binaryUrl = media.content.url as string;
    // The attachment's url is the Binary's signed storage URL: storage/{id}?Signature=…
    const binaryId = new URL(binaryUrl).pathname.split('/').pop() as string;
    const binary = await server.db.query<{ content: Binary }>(
      "SELECT content FROM resource WHERE resource_type = 'Binary' AND id = $1",
      [binaryId],
    );
    expect(binary.rows[0].content.securityContext).toEqual({ reference: `Media/${media.id}` });
    const blob = await admin.download(binaryUrl);
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([...bytes]);
    expect([...new Uint8Array(await (await admin.download(`Binary/${binaryId}`)).arrayBuffer())]).toEqual([
      ...bytes,
    ]);
  });

  test('createDocumentReference points at the uploaded file; a download of a missing Binary rejects with Not found', async () => {
    const admin = await signIn('admin@bloom.example');
    const maria = await mariaOf(admin);
    const document = await admin.createDocumentReference({
      data: 'Ultrasound: all well',
      contentType: 'text/plain',
      filename: 'report.txt',
      additionalFields: { subject: { reference: `Patient/${maria.id}` }, description: 'Ultrasound report' },
    });
    expect(document).toMatchObject({ status: 'current', description: 'Ultrasound report' });
    const attachment = document.content[0].attachment;
    expect(attachment).toMatchObject({ contentType: 'text/plain', title: 'report.txt' });
    expect(await (await admin.download(attachment.url as string)).text()).toBe('Ultrasound: all well');
    const missing = await admin
      .download('Binary/00000000-0000-4000-8000-000000000000')
      .catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(OperationOutcomeError);
    expect((missing as OperationOutcomeError).message).toBe('Not found');
  });

  test('createComment on a Patient: a completed Communication about her, from the signed-in profile', async () => {
    const admin = await signIn('admin@bloom.example');
    const maria = await mariaOf(admin);
    const comment = await admin.createComment(maria, 'Called to confirm the scan');
    const stored = await admin.readResource<Communication>('Communication', comment.id as string);
    expect(stored).toMatchObject({
      status: 'completed',
      basedOn: [{ reference: `Patient/${maria.id}` }],
      subject: { reference: `Patient/${maria.id}` },
      sender: { reference: `${admin.getProfile()?.resourceType}/${admin.getProfile()?.id}` },
      payload: [{ contentString: 'Called to confirm the scan' }],
    });
  });

  test("keyValue with Medplum's rules: the app's keys work, a dotted key is refused with 'Invalid key'", async () => {
    const maria = await signIn('maria@bloom.example');
    await maria.keyValue.set('bloom-share-context', 'on');
    await expect(maria.keyValue.get('bloom-share-context')).resolves.toBe('on');
    await expect(maria.keyValue.set('bloom.share-context', 'on')).rejects.toThrow('Invalid key');
    await expect(maria.keyValue.get('bloom.share-context')).rejects.toThrow('Invalid key');
    await maria.keyValue.delete('bloom-share-context');
    await expect(maria.keyValue.get('bloom-share-context')).resolves.toBeUndefined();
    // Deleting what is not there is fine, as on Medplum.
    await expect(maria.keyValue.delete('bloom-share-context')).resolves.toBeUndefined();
  });
});
