// The server pieces of the messages screen over real HTTP (SPEC §2 messages, §3
// Communication and Attachment, §6 "Patients can create Communication", §7 Binary): (a) a patient
// uploads a Binary she can read back (securityContext = her Patient) but cannot read another
// patient's, (b) attachment URLs of Binaries in GraphQL and REST answers are signed, expiring
// storage URLs that work without a header, only for Binaries the caller may read, and the signed URL
// an upload answers is stored as the Binary reference (another Bloom server's signed URL is stored
// as sent), (c) a patient creates a Communication about herself and never about another patient.
// Demo clinic, real sign-ins.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Attachment, Binary, Bundle, Communication } from '@medplum/fhirtypes';
import { generateKeyPair, SignJWT } from 'jose';
import { seedDemoClinic } from '../../../src/server/seed';
import { Repository, systemContext } from '../../../src/server/repo';
import { signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const DEMO_PASSWORD = 'bloom-demo';
/** Another Bloom server, with its own base URL and key. */
const OTHER_BASE = 'https://other.example/';

/** A storage URL as another Bloom server signs it: a real ES256 signature issued by its own base. */
async function otherServerUrl(binaryId: string): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  const signature = await new SignJWT({ purpose: 'binary-url', sub: `Binary/${binaryId}` })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(OTHER_BASE)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
  const expires = Math.floor(Date.now() / 1000) + 3600;
  return `${OTHER_BASE}storage/${binaryId}?Expires=${expires}&Signature=${signature}`;
}

interface Answer<T> {
  status: number;
  body: T & { issue?: { details?: { text?: string } }[] };
}

describe.each(databases())('issue #8 message attachments and Communications on %s', (_engine, kind) => {
  let server: TestServer;
  let dir: string;
  let maria: Tokens;
  let aisha: Tokens;
  let chen: Tokens;
  const mariaRef = () => maria.profile?.reference as string;
  const aishaRef = () => aisha.profile?.reference as string;
  const chenRef = () => chen.profile?.reference as string;

  async function call<T>(
    method: string,
    pathAndQuery: string,
    tokens: Tokens,
    body?: BodyInit,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const response = await fetch(`${server.fhirUrl}${pathAndQuery}`, {
      method,
      headers: { authorization: `Bearer ${tokens.access_token}`, ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer<T>['body'] };
  }

  /** GET Binary/{id} answers bytes when allowed: only the status matters here. */
  async function binaryStatus(tokens: Tokens, id: string | undefined): Promise<number> {
    const response = await fetch(`${server.fhirUrl}Binary/${id}`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    await response.arrayBuffer();
    return response.status;
  }

  const upload = (tokens: Tokens, bytes: Uint8Array, headers: Record<string, string> = {}) =>
    call<Binary>('POST', 'Binary?_filename=photo.png', tokens, new Uint8Array(bytes), {
      'content-type': 'image/png',
      ...headers,
    });

  const send = (tokens: Tokens, communication: Communication) =>
    call<Communication>('POST', 'Communication', tokens, JSON.stringify(communication), {
      'content-type': 'application/fhir+json',
    });

  const message = (subject: string, sender: string, recipient: string, url?: string): Communication => ({
    resourceType: 'Communication',
    status: 'completed',
    subject: { reference: subject },
    sender: { reference: sender },
    recipient: [{ reference: recipient }],
    sent: new Date().toISOString(),
    payload: url
      ? [{ contentAttachment: { contentType: 'image/png', url, title: 'photo.png' } }]
      : [{ contentString: 'Hello from the test' }],
  });

  async function attachmentUrls(tokens: Tokens, subject: string): Promise<Record<string, string>> {
    const query = `query($subject: String!) { CommunicationList(subject: $subject, _count: 100) {
      id payload { contentAttachment { url } } } }`;
    const answer = await call<{ data: { CommunicationList: Communication[] } }>(
      'POST',
      '$graphql',
      tokens,
      JSON.stringify({ query, variables: { subject } }),
      { 'content-type': 'application/json' },
    );
    expect(answer.status).toBe(200);
    const urls: Record<string, string> = {};
    for (const communication of answer.body.data.CommunicationList) {
      const url = communication.payload?.[0]?.contentAttachment?.url;
      if (url) urls[communication.id as string] = url;
    }
    return urls;
  }

  /** The first attachment URL of a Communication as the database holds it (no signing on the way). */
  async function storedUrl(id: string): Promise<string | undefined> {
    const communication = await new Repository(server.db, systemContext()).readResource<Communication>(
      'Communication',
      id,
    );
    return communication.payload?.[0]?.contentAttachment?.url;
  }

  /** Every attachment URL of a Communication as the database holds it. */
  async function storedUrls(id: string): Promise<(string | undefined)[]> {
    const communication = await new Repository(server.db, systemContext()).readResource<Communication>(
      'Communication',
      id,
    );
    return (communication.payload ?? []).map((p) => p.contentAttachment?.url);
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-attachments-'));
    server = await startTestServer(kind, { BINARY_DIR: dir }, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEMO_PASSWORD });
    [maria, aisha, chen] = await Promise.all(
      ['maria', 'aisha', 'dr.chen'].map((name) =>
        signIn(server.baseUrl, `${name}@bloom.example`, DEMO_PASSWORD),
      ),
    );
  });

  afterAll(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('(a) SPEC §6/§7: Maria uploads a Binary placed in her compartment and reads it back; Aisha gets 404', async () => {
    const bytes = crypto.randomBytes(700);
    const created = await upload(maria, bytes);
    expect(created.status).toBe(201);
    expect(created.body.securityContext).toEqual({ reference: mariaRef() });
    const id = created.body.id as string;

    const mine = await fetch(`${server.fhirUrl}Binary/${id}`, {
      headers: { authorization: `Bearer ${maria.access_token}` },
    });
    expect(mine.status).toBe(200);
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(bytes);

    const hers = await call('GET', `Binary/${id}`, aisha, undefined, { accept: 'application/fhir+json' });
    expect(hers.status).toBe(404);
    expect(JSON.stringify(hers.body)).not.toContain(mariaRef());
    // Aisha's own upload is hers alone, in the other direction too.
    const aishas = await upload(aisha, crypto.randomBytes(50));
    expect(aishas.status).toBe(201);
    expect(await binaryStatus(maria, aishas.body.id)).toBe(404);
  });

  test("(a) a patient cannot place a Binary in another patient's compartment; a bad X-Security-Context is 400", async () => {
    const other = await upload(maria, crypto.randomBytes(20), { 'x-security-context': aishaRef() });
    expect(other.status).toBe(403);
    const bad = await upload(maria, crypto.randomBytes(20), { 'x-security-context': 'not a reference' });
    expect(bad.status).toBe(400);
    expect(bad.body.issue?.[0]?.details?.text).toMatch(/X-Security-Context/);
    // The refused uploads left no bytes behind (only this test's accepted files would be on disk).
    const stored = fs.readdirSync(dir).flatMap((sub) => fs.readdirSync(path.join(dir, sub)));
    const readable = await Promise.all(stored.map((id) => binaryStatus(chen, id)));
    expect(readable.every((status) => status === 200)).toBe(true);
  });

  test("(a) Dr. Chen's upload with X-Security-Context: Maria's Patient is readable by Maria, not by Aisha", async () => {
    const created = await upload(chen, crypto.randomBytes(90), { 'x-security-context': mariaRef() });
    expect(created.status).toBe(201);
    expect(await binaryStatus(maria, created.body.id)).toBe(200);
    expect(await binaryStatus(aisha, created.body.id)).toBe(404);
  });

  test('(c) SPEC §6: Maria creates a Communication about herself to Dr. Chen', async () => {
    const created = await send(maria, message(mariaRef(), mariaRef(), chenRef()));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'completed', subject: { reference: mariaRef() } });
  });

  test('(c) Maria cannot create a Communication about Aisha, nor one sent to Aisha; nothing is stored', async () => {
    const about = await send(maria, message(aishaRef(), mariaRef(), chenRef()));
    expect(about.status).toBe(403);
    const to = await send(maria, message(mariaRef(), mariaRef(), aishaRef()));
    expect(to.status).toBe(403);
    const posing = await send(maria, message(aishaRef(), aishaRef(), chenRef()));
    expect(posing.status).toBe(403);
    const aishas = await call<{ entry?: unknown[] }>(
      'GET',
      `Communication?subject=${aishaRef()}&_count=100`,
      chen,
    );
    const texts = JSON.stringify(aishas.body);
    expect(texts).not.toContain('Hello from the test');
  });

  test('(b) SPEC §3/§7: a Binary attachment comes back from $graphql as a signed URL that works without a header', async () => {
    const bytes = crypto.randomBytes(300);
    const binary = await upload(maria, bytes);
    const created = await send(maria, message(mariaRef(), mariaRef(), chenRef(), `Binary/${binary.body.id}`));
    expect(created.status).toBe(201);
    // Stored as the reference, which never expires.
    expect(await storedUrl(created.body.id as string)).toBe(`Binary/${binary.body.id}`);

    for (const tokens of [maria, chen]) {
      const url = (await attachmentUrls(tokens, mariaRef()))[created.body.id as string];
      expect(url).toMatch(
        new RegExp(`^${server.baseUrl}storage/${binary.body.id}\\?Expires=\\d+&Signature=`),
      );
      const expires = Number(new URL(url).searchParams.get('Expires')) * 1000;
      expect(expires).toBeGreaterThan(Date.now());
      const image = await fetch(url); // no Authorization header, as an <img>
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer())).toEqual(bytes);
    }
  });

  test('(b) the signed URL an upload answers (what createAttachment puts in the message) is stored as Binary/{id}; a stale one is signed afresh', async () => {
    const bytes = crypto.randomBytes(120);
    const binary = await upload(maria, bytes);
    const signed = binary.body.url as string;
    expect(signed).toMatch(/\/storage\/.+Signature=/);
    const created = await send(maria, message(mariaRef(), mariaRef(), chenRef(), signed));
    expect(created.status).toBe(201);
    // An expiring URL in the database would break the image an hour later.
    const stored = () => storedUrl(created.body.id as string);
    expect(await stored()).toBe(`Binary/${binary.body.id}`);
    // An update carrying the signed URL again (the care team saving what it read; a patient only
    // creates) keeps the reference.
    const updated = await call<Communication>(
      'PUT',
      `Communication/${created.body.id}`,
      chen,
      JSON.stringify({
        ...created.body,
        payload: [{ contentAttachment: { url: signed, contentType: 'image/png' } }],
      }),
      { 'content-type': 'application/fhir+json' },
    );
    expect(updated.status).toBe(200);
    expect(await stored()).toBe(`Binary/${binary.body.id}`);

    // A storage URL stored as is (its signature is no longer a token) is answered freshly signed.
    const stale = `${server.baseUrl}storage/${binary.body.id}?Expires=1&Signature=stale`;
    const old = await send(maria, message(mariaRef(), mariaRef(), chenRef(), stale));
    expect(await storedUrl(old.body.id as string)).toBe(stale);
    const url = (await attachmentUrls(maria, mariaRef()))[old.body.id as string];
    expect(url).not.toBe(stale);
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(bytes);
  });

  test('(b) only this server’s signed URLs become Binary/{id}: another Bloom server’s is stored and answered as sent, by POST, PUT, PATCH, a transaction and a $graphql mutation', async () => {
    const binary = await upload(maria, crypto.randomBytes(80));
    const binaryId = binary.body.id as string;
    const ours = binary.body.url as string;
    expect(ours.startsWith(`${server.baseUrl}storage/${binaryId}?`)).toBe(true);
    // The same Binary id signed by another server: made a local reference, it would show Maria's
    // Binary (or someone else's) in place of that server's.
    const theirs = await otherServerUrl(binaryId);
    const attachments = (): Attachment[] => [
      { contentType: 'image/png', url: ours },
      { contentType: 'image/png', url: theirs },
    ];
    const withBoth = (): Communication => ({
      ...message(mariaRef(), mariaRef(), chenRef()),
      payload: attachments().map((contentAttachment) => ({ contentAttachment })),
    });
    const plain = async () => (await send(maria, message(mariaRef(), mariaRef(), chenRef()))).body;
    const fhirJson = { 'content-type': 'application/fhir+json' };
    const written: Record<string, string> = {};

    const posted = await send(maria, withBoth());
    expect(posted.status).toBe(201);
    written.POST = posted.body.id as string;

    const before = await plain();
    const put = await call<Communication>(
      'PUT',
      `Communication/${before.id}`,
      chen,
      JSON.stringify({ ...before, payload: withBoth().payload }),
      fhirJson,
    );
    expect(put.status).toBe(200);
    written.PUT = before.id as string;

    const toPatch = await plain();
    const patched = await call<Communication>(
      'PATCH',
      `Communication/${toPatch.id}`,
      chen,
      JSON.stringify([{ op: 'replace', path: '/payload', value: withBoth().payload }]),
      { 'content-type': 'application/json-patch+json' },
    );
    expect(patched.status).toBe(200);
    written.PATCH = toPatch.id as string;

    const transaction = await call<Bundle<Communication>>(
      'POST',
      '',
      chen,
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [{ request: { method: 'POST', url: 'Communication' }, resource: withBoth() }],
      }),
      fhirJson,
    );
    expect(transaction.status).toBe(200);
    written.transaction = transaction.body.entry?.[0]?.resource?.id as string;

    const mutation = await call<{ data: { CommunicationCreate: { id: string } } }>(
      'POST',
      '$graphql',
      chen,
      JSON.stringify({
        query: 'mutation ($res: CommunicationCreate!) { CommunicationCreate(res: $res) { id } }',
        variables: { res: withBoth() },
      }),
      { 'content-type': 'application/json' },
    );
    expect(mutation.status).toBe(200);
    written.graphql = mutation.body.data.CommunicationCreate.id;

    const signedHere = new RegExp(`^${server.baseUrl}storage/${binaryId}\\?Expires=\\d+&Signature=`);
    for (const [how, id] of Object.entries(written)) {
      expect([how, await storedUrls(id)]).toEqual([how, [`Binary/${binaryId}`, theirs]]);
      // Read back: this server's Binary signed afresh; the other server's URL exactly as sent.
      const read = await call<Communication>('GET', `Communication/${id}`, maria);
      const urls = read.body.payload?.map((p) => p.contentAttachment?.url);
      expect(urls?.[0]).toMatch(signedHere);
      expect([how, urls?.[1]]).toEqual([how, theirs]);
    }
    const query = `query($id: ID!) { Communication(id: $id) { payload { contentAttachment { url } } } }`;
    const viaGraphql = await call<{ data: { Communication: Communication } }>(
      'POST',
      '$graphql',
      maria,
      JSON.stringify({ query, variables: { id: written.POST } }),
      { 'content-type': 'application/json' },
    );
    const graphqlUrls = viaGraphql.body.data.Communication.payload?.map((p) => p.contentAttachment?.url);
    expect(graphqlUrls?.[0]).toMatch(signedHere);
    expect(graphqlUrls?.[1]).toBe(theirs);
  });

  test('(b) REST answers sign too: the create answer, a read, a search and $everything give signed URLs that load without a header; another patient’s Binary stays the reference', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const bytes = crypto.randomBytes(64);
    const binary = await upload(maria, bytes);
    const signedUrl = new RegExp(`^${server.baseUrl}storage/${binary.body.id}\\?Expires=\\d+&Signature=`);
    const created = await send(maria, message(mariaRef(), mariaRef(), chenRef(), `Binary/${binary.body.id}`));
    expect(created.status).toBe(201);
    expect(created.body.payload?.[0]?.contentAttachment?.url).toMatch(signedUrl);
    const id = created.body.id as string;

    const answered: string[] = [];
    for (const tokens of [maria, chen]) {
      const read = await call<Communication>('GET', `Communication/${id}`, tokens);
      answered.push(read.body.payload?.[0]?.contentAttachment?.url as string);
      const found = await call<Bundle<Communication>>('GET', `Communication?_id=${id}`, tokens);
      answered.push(found.body.entry?.[0]?.resource?.payload?.[0]?.contentAttachment?.url as string);
    }
    const everything = await call<Bundle>(
      'GET',
      `${mariaRef()}/$everything?_type=Communication&_since=${encodeURIComponent(since)}`,
      maria,
    );
    const mine = everything.body.entry?.find((e) => e.resource?.id === id)?.resource as Communication;
    answered.push(mine.payload?.[0]?.contentAttachment?.url as string);
    for (const url of answered) {
      expect(url).toMatch(signedUrl);
      const image = await fetch(url); // no Authorization header, as an <img>
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer())).toEqual(bytes);
    }
    // Still stored as the reference.
    expect(await storedUrl(id)).toBe(`Binary/${binary.body.id}`);

    const aishas = await upload(aisha, crypto.randomBytes(40));
    const foreign = await send(maria, message(mariaRef(), mariaRef(), chenRef(), `Binary/${aishas.body.id}`));
    expect(foreign.body.payload?.[0]?.contentAttachment?.url).toBe(`Binary/${aishas.body.id}`);
    const read = await call<Communication>('GET', `Communication/${foreign.body.id}`, maria);
    expect(read.body.payload?.[0]?.contentAttachment?.url).toBe(`Binary/${aishas.body.id}`);
  });

  test("(b) an attachment naming a Binary the caller may not read stays unsigned: Aisha's Binary in Maria's message", async () => {
    const aishas = await upload(aisha, crypto.randomBytes(40));
    const created = await send(maria, message(mariaRef(), mariaRef(), chenRef(), `Binary/${aishas.body.id}`));
    expect(created.status).toBe(201);
    const url = (await attachmentUrls(maria, mariaRef()))[created.body.id as string];
    expect(url).toBe(`Binary/${aishas.body.id}`);
    // An absolute URL of this server's Binary is signed like the relative one; other URLs pass unchanged.
    const mine = await upload(maria, crypto.randomBytes(40));
    const absolute = await send(
      maria,
      message(mariaRef(), mariaRef(), chenRef(), `${server.fhirUrl}Binary/${mine.body.id}`),
    );
    const external = await send(
      maria,
      message(mariaRef(), mariaRef(), chenRef(), 'https://images.example/photo.png'),
    );
    const urls = await attachmentUrls(maria, mariaRef());
    expect(urls[absolute.body.id as string]).toMatch(/\/storage\/.+Signature=/);
    expect(urls[external.body.id as string]).toBe('https://images.example/photo.png');
  });
});
