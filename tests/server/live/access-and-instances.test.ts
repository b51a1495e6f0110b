// Live updates and who hears what: a patient's socket never receives another
// patient's resource, with real sign-ins and access tokens; and two server instances on one
// database (two PostgreSQL pools on one schema with TEST_DATABASE_URL, else one PGlite shared by two
// servers), where a write through one reaches a socket bound on the other through LISTEN/NOTIFY.
// An attachment in a notification is a signed URL when the subscriber may read its Binary.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  AccessPolicy,
  Binary,
  Communication,
  Parameters,
  Project,
  Subscription,
} from '@medplum/fhirtypes';
import { Repository, systemContext } from '../../../src/server/repo';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { uploadInto } from './support/binary-upload';
import { databases } from '../support/test-databases';
import { startTwoInstances, type TwoInstances } from '../support/two-instances';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { focusOf, isError, isStatus, LiveSocket, statusOf } from './support/live-socket';
import type { LiveMessage } from './support/live-socket';

async function getJson<T>(url: string, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: (await response.json()) as T };
}

async function postJson<T>(url: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/fhir+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

function bindingToken(parameters: Parameters): string {
  return parameters.parameter?.find((p) => p.name === 'token')?.valueString as string;
}

describe.each(databases())('issue #8 live updates obey access control (SPEC §6) on %s', (_engine, kind) => {
  let server: TestServer;
  let project: Project;
  let maria: Tokens;
  let aisha: Tokens;
  let practitioner: Tokens;
  let subscription: Subscription;
  let binaryDir: string;
  const sockets: LiveSocket[] = [];

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-live-access-'));
    server = await startTestServer(kind, { BINARY_DIR: binaryDir }, { requireAuth: true });
    project = await createProject(server.db, 'Live Clinic');
    const repo = new Repository(server.db, systemContext(project.id));
    // Patients: their own Communications, and the clinic's Subscriptions read-only.
    const policy = await repo.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Live patient',
      compartment: { reference: '%patient' },
      resource: [
        { resourceType: 'Patient', compartment: { reference: '%patient' } },
        { resourceType: 'Communication', compartment: { reference: '%patient' } },
        { resourceType: 'Binary', compartment: { reference: '%patient' } },
        { resourceType: 'Subscription', readonly: true },
      ],
    });
    const withPolicy = { ...project, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}` } };
    const accounts = await Promise.all(
      (['Patient', 'Patient', 'Practitioner'] as const).map(async (type) => {
        const user = await createUser(server.db);
        await addMembership(server.db, user, withPolicy, type);
        return signIn(server.baseUrl, user.email as string);
      }),
    );
    [maria, aisha, practitioner] = accounts;
    // One Subscription on every Communication: what each patient hears is decided by access alone.
    subscription = await repo.createResource<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'all messages',
      criteria: 'Communication',
      channel: { type: 'websocket' },
    });
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });

  afterAll(async () => {
    await server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  const message = (patient: Tokens, text: string): Communication => ({
    resourceType: 'Communication',
    status: 'completed',
    subject: { reference: patient.profile?.reference },
    payload: [{ contentString: text }],
  });

  test("a patient's socket receives their own messages and never another patient's", async () => {
    const token = await getJson<Parameters>(
      `${server.fhirUrl}Subscription/${subscription.id}/$get-ws-binding-token`,
      maria.access_token,
    );
    expect(token.status).toBe(200);
    const socket = await LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`);
    sockets.push(socket);
    socket.bind(bindingToken(token.body));
    await socket.next(isStatus('handshake', subscription.id));
    const forAisha = await postJson<Communication>(
      `${server.fhirUrl}Communication`,
      message(aisha, 'for Aisha'),
      practitioner.access_token,
    );
    expect(forAisha.status).toBe(201);
    const forMaria = await postJson<Communication>(
      `${server.fhirUrl}Communication`,
      message(maria, 'for Maria'),
      practitioner.access_token,
    );
    expect(forMaria.status).toBe(201);
    const first = await socket.next(isStatus('event-notification'));
    expect(focusOf(first)).toBe(`Communication/${forMaria.body.id}`);
    // Aisha's arrives on her own socket.
    const aishaToken = await getJson<Parameters>(
      `${server.fhirUrl}Subscription/${subscription.id}/$get-ws-binding-token`,
      aisha.access_token,
    );
    const aishaSocket = await LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`);
    sockets.push(aishaSocket);
    aishaSocket.bind(bindingToken(aishaToken.body));
    await aishaSocket.next(isStatus('handshake', subscription.id));
    const again = await postJson<Communication>(
      `${server.fhirUrl}Communication`,
      message(aisha, 'again'),
      practitioner.access_token,
    );
    expect(focusOf(await aishaSocket.next(isStatus('event-notification')))).toBe(
      `Communication/${again.body.id}`,
    );
  });

  /** Dr. Chen's upload into `patient`'s compartment. */
  const upload = (patient: Tokens, bytes: Buffer): Promise<Binary> =>
    uploadInto(server.fhirUrl, practitioner, patient, bytes);

  /** A socket bound with Maria's binding token (after a drop: with the last event she saw). */
  async function bindAsMaria(subscriptionId: string, lastEventNumber?: string) {
    const token = await getJson<Parameters>(
      `${server.fhirUrl}Subscription/${subscriptionId}/$get-ws-binding-token`,
      maria.access_token,
    );
    expect(token.status).toBe(200);
    const socket = await LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`);
    sockets.push(socket);
    socket.bind(bindingToken(token.body), lastEventNumber);
    return { socket, handshake: await socket.next(isStatus('handshake', subscriptionId)) };
  }

  const attachmentUrls = (notification: LiveMessage): (string | undefined)[] =>
    ((notification.entry as { resource?: Communication }[])[1]?.resource?.payload ?? []).map(
      (p) => p.contentAttachment?.url,
    );

  test('SPEC §3 Attachment, §7 Binary: a notification (live or replayed) carries a signed URL that loads without a header for a Binary the subscriber may read; another stays a reference', async () => {
    const mariaRef = maria.profile?.reference as string;
    const mine = crypto.randomBytes(96);
    const forMaria = await upload(maria, mine);
    const forAisha = await upload(aisha, crypto.randomBytes(40));
    // Maria's own Subscription on her messages, bound as her.
    const hers = await new Repository(server.db, systemContext(project.id)).createResource<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'my messages',
      criteria: `Communication?subject=${mariaRef}`,
      channel: { type: 'websocket' },
    });
    const { socket, handshake } = await bindAsMaria(hers.id as string);
    const before = statusOf(handshake)?.eventsSinceSubscriptionStart as string;
    // Aisha's Binary put into Maria's message (the practitioner may read both): Maria may not read it.
    const sent = await postJson<Communication>(
      `${server.fhirUrl}Communication`,
      {
        ...message(maria, 'your scan'),
        payload: [
          { contentAttachment: { contentType: 'image/png', url: `Binary/${forMaria.id}` } },
          { contentAttachment: { contentType: 'image/png', url: `Binary/${forAisha.id}` } },
        ],
      },
      practitioner.access_token,
    );
    expect(sent.status).toBe(201);
    const signed = new RegExp(`^${server.baseUrl}storage/${forMaria.id}\\?Expires=\\d+&Signature=`);
    const live = await socket.next(isStatus('event-notification', hers.id));
    expect(focusOf(live)).toBe(`Communication/${sent.body.id}`);
    const [url, other] = attachmentUrls(live);
    expect(url).toMatch(signed);
    expect(other).toBe(`Binary/${forAisha.id}`);
    const image = await fetch(url as string); // no Authorization header, as an <img>
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(mine);
    // The stored message keeps the references.
    const stored = await new Repository(server.db, systemContext(project.id)).readResource<Communication>(
      'Communication',
      sent.body.id as string,
    );
    expect(stored.payload?.map((p) => p.contentAttachment?.url)).toEqual([
      `Binary/${forMaria.id}`,
      `Binary/${forAisha.id}`,
    ]);
    // After a drop she re-binds with the event she saw before it: the replayed event is signed too.
    await socket.close();
    const again = await bindAsMaria(hers.id as string, before);
    const replayed = await again.socket.next(isStatus('event-notification', hers.id));
    expect(focusOf(replayed)).toBe(`Communication/${sent.body.id}`);
    const [replayedUrl, replayedOther] = attachmentUrls(replayed);
    expect(replayedUrl).toMatch(signed);
    expect(replayedOther).toBe(`Binary/${forAisha.id}`);
    const reloaded = await fetch(replayedUrl as string);
    expect(reloaded.status).toBe(200);
    expect(Buffer.from(await reloaded.arrayBuffer())).toEqual(mine);
  });

  test('$get-ws-binding-token needs an access token, and a Subscription the caller can read', async () => {
    expect(
      (await getJson(`${server.fhirUrl}Subscription/${subscription.id}/$get-ws-binding-token`)).status,
    ).toBe(401);
    const elsewhere = await createProject(server.db, 'Elsewhere');
    const foreign = await new Repository(server.db, systemContext(elsewhere.id)).createResource<Subscription>(
      {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'x',
        criteria: 'Communication',
        channel: { type: 'websocket' },
      },
    );
    const refused = await getJson(
      `${server.fhirUrl}Subscription/${foreign.id}/$get-ws-binding-token`,
      maria.access_token,
    );
    expect(refused.status).toBe(404);
  });

  test('an access token is not a binding token', async () => {
    const socket = await LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`);
    sockets.push(socket);
    socket.bind(maria.access_token);
    await socket.next(isError);
  });
});

describe('issue #8 two server instances on one database', () => {
  let instances: TwoInstances | undefined;
  let bases: string[] = [];

  beforeAll(async () => {
    instances = await startTwoInstances({ schemaPrefix: 'live', getContext: () => systemContext() });
    bases = instances.bases;
  }, 120_000);

  afterAll(async () => {
    await instances?.stop();
  });

  test('a write through instance B reaches a socket bound on instance A', async () => {
    const [a, b] = bases;
    const created = await postJson<Subscription>(`${a}fhir/R4/Subscription`, {
      resourceType: 'Subscription',
      status: 'active',
      reason: 'two instances',
      criteria: 'Communication?subject=Patient/two-instances',
      channel: { type: 'websocket' },
    });
    // The binding token from B works on A: both share the signing key in the database.
    const token = await getJson<Parameters>(
      `${b}fhir/R4/Subscription/${created.body.id}/$get-ws-binding-token`,
    );
    const socket = await LiveSocket.open(`${a.replace('http', 'ws')}ws/subscriptions-r4`);
    try {
      socket.bind(bindingToken(token.body));
      await socket.next(isStatus('handshake', created.body.id));
      const written = await postJson<Communication>(`${b}fhir/R4/Communication`, {
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: 'Patient/two-instances' },
      });
      expect(written.status).toBe(201);
      expect(focusOf(await socket.next(isStatus('event-notification', created.body.id)))).toBe(
        `Communication/${written.body.id}`,
      );
    } finally {
      await socket.close();
    }
  });
});
