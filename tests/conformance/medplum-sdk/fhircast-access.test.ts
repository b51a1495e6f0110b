// Who may use a FHIRcast topic (SPEC §6 access, §7 Remote context sync), driven by Medplum's own
// MedplumClient (@medplum/core 5.2.13, unchanged) over real HTTP and WebSockets: a practitioner's
// `bloom-Practitioner-{id}` topic is his alone (nobody else reads, subscribes, publishes or claims it),
// a topic belongs to whoever first used it and to whom he shares it with, a revoked sharer's socket
// is denied (4403), and a patient uses FHIRcast only when her AccessPolicy names the FHIRcast type.
// PGlite, and PostgreSQL with TEST_DATABASE_URL.
import crypto from 'node:crypto';
import type {
  FhircastConnectEvent,
  FhircastConnection,
  FhircastDisconnectEvent,
  FhircastMessageEvent,
  FhircastMessagePayload,
  MedplumClient,
  SubscriptionRequest,
} from '@medplum/core';
import type { AccessPolicy, Project, ProjectMembership } from '@medplum/fhirtypes';
import { addMembership, createProject, createUser, signIn } from '../../server/auth/support/auth-fixtures';
import { Repository, systemContext } from '../../../src/server/repo';
import { TestSubscriber } from '../../server/fhircast/hub-socket';
import { databases } from '../../server/support/test-databases';
import { startTestServer } from '../../server/support/test-server';
import type { TestServer } from '../../server/support/test-server';
import { medplumClient, outcomeOf, rejectionOf } from './support/medplum-client';

const patient = (id: string) => ({
  key: 'patient' as const,
  resource: { resourceType: 'Patient' as const, id },
});

interface Member {
  client: MedplumClient;
  token: string;
  profile: string;
  /** `bloom-{type}-{id}`: the topic the app picks for this user. */
  topic: string;
}

/** The next `type` event of `connection`, or a failure after 5 s. */
function next(connection: FhircastConnection, type: 'connect' | 'disconnect' | 'message'): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within 5 s`)), 5000);
    const listener = (event: FhircastConnectEvent | FhircastDisconnectEvent | FhircastMessageEvent) => {
      clearTimeout(timer);
      connection.removeEventListener(type, listener);
      resolve('payload' in event ? event.payload : undefined);
    };
    connection.addEventListener(type, listener);
  });
}

const TOPIC_REFUSED = (topic: string) =>
  `The FHIRcast topic ${topic} belongs to another user and is not shared with you`;

describe.each(databases())('FHIRcast topics are access-controlled (issue #22) on %s', (_engine, kind) => {
  let server: TestServer;
  let project: Project;
  let chen: Member;
  let okafor: Member;
  let lee: Member;
  let maria: Member;
  let aisha: Member;
  let nadia: Member;
  const connections: FhircastConnection[] = [];
  const sockets: TestSubscriber[] = [];

  async function member(email: string): Promise<Member> {
    const tokens = await signIn(server.baseUrl, email);
    const client = await medplumClient(server.baseUrl);
    client.setAccessToken(tokens.access_token);
    const profile = tokens.profile?.reference as string;
    return { client, token: tokens.access_token, profile, topic: `bloom-${profile.replace('/', '-')}` };
  }

  async function practitioner(): Promise<Member> {
    const user = await createUser(server.db);
    await addMembership(server.db, user, project, 'Practitioner');
    return member(user.email as string);
  }

  /** A patient whose membership names `policy` (the project's default patient policy when none). */
  async function patientMember(policy?: AccessPolicy): Promise<Member> {
    const user = await createUser(server.db);
    const membership = await addMembership(server.db, user, project, 'Patient');
    if (policy) {
      const repo = new Repository(server.db, systemContext(project.id));
      const created = await repo.createResource<AccessPolicy>(policy);
      await repo.updateResource<ProjectMembership>({
        ...membership,
        accessPolicy: { reference: `AccessPolicy/${created.id}` },
      });
    }
    return member(user.email as string);
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { LIVE_HEARTBEAT_INTERVAL: '300' }, { requireAuth: true });
    project = await createProject(server.db, 'Cast Clinic');
    [chen, okafor, lee] = await Promise.all([practitioner(), practitioner(), practitioner()]);
    // Maria has the project's default patient policy, which does not name FHIRcast.
    maria = await patientMember();
    aisha = await patientMember({
      resourceType: 'AccessPolicy',
      name: 'Patient with FHIRcast',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'FHIRcast' }],
    });
    nadia = await patientMember({
      resourceType: 'AccessPolicy',
      name: 'Patient following FHIRcast',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'FHIRcast', readonly: true }],
    });
  });

  afterEach(() => {
    for (const connection of connections.splice(0)) connection.disconnect();
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(async () => {
    await server?.close();
  });

  async function connected(
    client: MedplumClient,
    subscription: SubscriptionRequest,
  ): Promise<FhircastConnection> {
    const connection = client.fhircastConnect(subscription);
    connections.push(connection);
    await next(connection, 'connect');
    return connection;
  }

  /** The outcome of a refused MedplumClient call: its issue's code and text. */
  async function refusal(call: Promise<unknown>): Promise<{ code?: string; text?: string }> {
    const [issue] = outcomeOf(await rejectionOf(call));
    return { code: issue?.code, text: issue?.text };
  }

  async function raw(
    token: string,
    method: string,
    path: string,
    body?: { json?: unknown; form?: Record<string, string> },
  ): Promise<{
    status: number;
    body: { resourceType?: string; issue?: unknown[] } & Record<string, unknown>;
  }> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let payload: string | undefined;
    if (body?.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body?.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body.form).toString();
    }
    const response = await fetch(`${server.baseUrl}fhircast/STU3${path}`, { method, headers, body: payload });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const share = (owner: Member, topic: string, sharedWith: unknown[]) =>
    raw(owner.token, 'PUT', `/${encodeURIComponent(topic)}/sharing`, { json: { sharedWith } });

  test("a practitioner's topic: he subscribes, publishes and reads it; another practitioner and a patient are refused everything", async () => {
    const topic = chen.topic;
    const own = await connected(chen.client, await chen.client.fhircastSubscribe(topic, ['Patient-open']));
    const heard: unknown[] = [];
    own.addEventListener('message', (event) => heard.push(event.payload));
    const received = next(own, 'message');
    await chen.client.fhircastPublish(topic, 'Patient-open', [patient('p-chen')]);
    expect(((await received) as FhircastMessagePayload).event.context).toEqual([patient('p-chen')]);
    await expect(chen.client.fhircastGetContext(topic)).resolves.toMatchObject({
      'context.type': 'Patient',
      context: [patient('p-chen')],
    });

    const forbidden = { code: 'forbidden', text: TOPIC_REFUSED(topic) };
    expect(await refusal(okafor.client.fhircastGetContext(topic))).toEqual(forbidden);
    expect(await refusal(okafor.client.fhircastSubscribe(topic, ['Patient-open']))).toEqual(forbidden);
    expect(await refusal(okafor.client.fhircastPublish(topic, 'Patient-open', [patient('steer')]))).toEqual(
      forbidden,
    );
    const policyRefusal = { code: 'forbidden', text: 'Your access policy does not grant FHIRcast read' };
    expect(await refusal(maria.client.fhircastGetContext(topic))).toEqual(policyRefusal);
    expect(await refusal(maria.client.fhircastSubscribe(topic, ['Patient-open']))).toEqual(policyRefusal);
    expect(await refusal(maria.client.fhircastPublish(topic, 'Patient-open', [patient('steer')]))).toEqual({
      code: 'forbidden',
      text: 'Your access policy does not grant FHIRcast create',
    });

    // Over plain HTTP: 403 OperationOutcomes on every route, the publish through the hub URL too.
    const message = {
      timestamp: new Date().toISOString(),
      id: crypto.randomUUID(),
      event: { 'hub.topic': topic, 'hub.event': 'Patient-open', context: [patient('steer')] },
    };
    for (const token of [okafor.token, maria.token]) {
      const answers = await Promise.all([
        raw(token, 'GET', `/${topic}`),
        raw(token, 'POST', `/${topic}`, { json: message }),
        raw(token, 'POST', '', { json: message }),
        raw(token, 'POST', '', {
          form: {
            'hub.channel.type': 'websocket',
            'hub.mode': 'subscribe',
            'hub.topic': topic,
            'hub.events': 'Patient-open',
          },
        }),
        raw(token, 'GET', `/${topic}/sharing`),
        raw(token, 'PUT', `/${topic}/sharing`, { json: { sharedWith: [] } }),
      ]);
      expect(answers.map((a) => [a.status, a.body.resourceType])).toEqual(
        Array.from({ length: 6 }, () => [403, 'OperationOutcome']),
      );
    }
    // Nothing they sent reached his screen or changed his context.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toHaveLength(1);
    await expect(chen.client.fhircastGetContext(topic)).resolves.toMatchObject({
      context: [patient('p-chen')],
    });
  });

  test('nobody else may claim a bloom-{type}-{id} topic before its user has used it', async () => {
    const topic = lee.topic;
    expect(await refusal(okafor.client.fhircastSubscribe(topic, ['Patient-open']))).toEqual({
      code: 'forbidden',
      text: TOPIC_REFUSED(topic),
    });
    expect(
      await refusal(okafor.client.fhircastPublish(topic, 'Patient-open', [patient('early')])),
    ).toMatchObject({
      code: 'forbidden',
    });
    expect((await share(okafor, topic, [{ reference: okafor.profile }])).status).toBe(403);
    // Still Dr. Lee's: he reads the empty context and finds himself its owner.
    await expect(lee.client.fhircastGetContext(topic)).resolves.toEqual({ 'context.type': '', context: [] });
    const sharing = await raw(lee.token, 'GET', `/${topic}/sharing`);
    expect(sharing).toEqual({
      status: 200,
      body: { 'hub.topic': topic, owner: { reference: lee.profile }, sharedWith: [] },
    });
  });

  test('a topic belongs to whoever first used it; shared, the other user follows and publishes; revoked, his socket is denied', async () => {
    const topic = `reading-room-${crypto.randomUUID()}`;
    await okafor.client.fhircastSubscribe(topic, ['Patient-open']);
    expect(await refusal(chen.client.fhircastSubscribe(topic, ['Patient-open']))).toEqual({
      code: 'forbidden',
      text: TOPIC_REFUSED(topic),
    });

    expect(await share(okafor, topic, [{ reference: chen.profile }, { reference: chen.profile }])).toEqual({
      status: 200,
      body: {
        'hub.topic': topic,
        owner: { reference: okafor.profile },
        sharedWith: [{ reference: chen.profile }],
      },
    });
    const subscription = await chen.client.fhircastSubscribe(topic, ['Patient-open']);
    const follower = await connected(chen.client, subscription);
    const received = next(follower, 'message');
    await okafor.client.fhircastPublish(topic, 'Patient-open', [patient('shared-1')]);
    expect(((await received) as FhircastMessagePayload).event.context).toEqual([patient('shared-1')]);
    await chen.client.fhircastPublish(topic, 'Patient-open', [patient('shared-2')]);
    await expect(okafor.client.fhircastGetContext(topic)).resolves.toMatchObject({
      context: [patient('shared-2')],
    });
    // A sharer does not manage the sharing.
    expect((await share(chen, topic, [])).status).toBe(403);
    expect((await raw(chen.token, 'GET', `/${topic}/sharing`)).status).toBe(403);

    // A raw socket on a second subscription of his shows the close code.
    const second = await raw(chen.token, 'POST', '', {
      form: {
        'hub.channel.type': 'websocket',
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.events': 'Patient-open',
      },
    });
    const endpoint = second.body['hub.channel.endpoint'] as string;
    const socket = await TestSubscriber.connect(endpoint);
    sockets.push(socket);
    const socketClosed = new Promise((resolve) => socket.ws.once('close', resolve));

    const disconnected = next(follower, 'disconnect');
    expect((await share(okafor, topic, [])).body.sharedWith).toEqual([]);
    await disconnected;
    await socketClosed;
    expect(socket.closeCode).toBe(4403);
    expect(socket.received.at(-1)).toMatchObject({
      'hub.mode': 'denied',
      'hub.topic': topic,
      'hub.reason': 'The topic is not shared with this subscriber',
    });
    expect(await refusal(chen.client.fhircastGetContext(topic))).toMatchObject({ code: 'forbidden' });
    expect(
      await refusal(chen.client.fhircastPublish(topic, 'Patient-open', [patient('late')])),
    ).toMatchObject({
      code: 'forbidden',
    });
    // The ended endpoint serves nothing any more.
    const again = await TestSubscriber.connect(endpoint);
    sockets.push(again);
    await new Promise((resolve) => (again.closeCode ? resolve(null) : again.ws.once('close', resolve)));
    expect(again.closeCode).toBe(4404);
  });

  test('a patient whose policy names FHIRcast uses her own topic, and nobody else’s; a readonly grant only follows', async () => {
    const own = await connected(
      aisha.client,
      await aisha.client.fhircastSubscribe(aisha.topic, ['Patient-open']),
    );
    const received = next(own, 'message');
    await aisha.client.fhircastPublish(aisha.topic, 'Patient-open', [patient('self')]);
    expect(((await received) as FhircastMessagePayload).event.context).toEqual([patient('self')]);
    expect(await refusal(aisha.client.fhircastGetContext(chen.topic))).toEqual({
      code: 'forbidden',
      text: TOPIC_REFUSED(chen.topic),
    });
    expect(
      await refusal(aisha.client.fhircastPublish(chen.topic, 'Patient-open', [patient('self')])),
    ).toMatchObject({
      code: 'forbidden',
    });

    // Maria's default policy does not name FHIRcast: not even her own topic.
    expect(await refusal(maria.client.fhircastSubscribe(maria.topic, ['Patient-open']))).toEqual({
      code: 'forbidden',
      text: 'Your access policy does not grant FHIRcast read',
    });

    // Nadia's grant is readonly: she reads and follows her topic, she does not publish or share.
    await expect(nadia.client.fhircastGetContext(nadia.topic)).resolves.toEqual({
      'context.type': '',
      context: [],
    });
    await connected(nadia.client, await nadia.client.fhircastSubscribe(nadia.topic, ['Patient-open']));
    const createRefused = { code: 'forbidden', text: 'Your access policy does not grant FHIRcast create' };
    expect(await refusal(nadia.client.fhircastPublish(nadia.topic, 'Patient-open', [patient('x')]))).toEqual(
      createRefused,
    );
    expect((await share(nadia, nadia.topic, [])).status).toBe(403);

    // Shared with a patient without a grant, the topic is still closed to her.
    const topic = `family-${crypto.randomUUID()}`;
    expect(
      (await share(chen, topic, [{ reference: maria.profile }, { reference: aisha.profile }])).status,
    ).toBe(200);
    expect(await refusal(maria.client.fhircastGetContext(topic))).toMatchObject({ code: 'forbidden' });
    await expect(aisha.client.fhircastGetContext(topic)).resolves.toEqual({
      'context.type': '',
      context: [],
    });
  });

  test('the sharing body is checked: a bad one is a 400 naming the entry, and changes nothing', async () => {
    const topic = `checked-${crypto.randomUUID()}`;
    expect((await share(okafor, topic, [{ reference: chen.profile }])).status).toBe(200);
    const cases: [unknown, string, string][] = [
      [[], 'The body must be {"sharedWith": [{"reference": "Practitioner/{id}"}, ...]}', 'sharedWith'],
      [{ sharedWith: 'Practitioner/1' }, 'sharedWith must be an array of references', 'sharedWith'],
      [
        { sharedWith: [{ reference: chen.profile }, { reference: 'Observation/1' }] },
        'Each entry must be a reference to a user profile, e.g. {"reference": "Practitioner/123"}',
        'sharedWith[1]',
      ],
      [
        { sharedWith: [null] },
        'Each entry must be a reference to a user profile, e.g. {"reference": "Practitioner/123"}',
        'sharedWith[0]',
      ],
      [
        { sharedWith: Array.from({ length: 101 }, (_, i) => ({ reference: `Practitioner/p${i}` })) },
        'A topic is shared with at most 100 profiles',
        'sharedWith',
      ],
    ];
    for (const [body, text, expression] of cases) {
      const answer = await raw(okafor.token, 'PUT', `/${topic}/sharing`, { json: body });
      expect({ status: answer.status, issue: answer.body.issue }).toEqual({
        status: 400,
        issue: [{ severity: 'error', code: 'invalid', details: { text }, expression: [expression] }],
      });
    }
    expect((await raw(okafor.token, 'GET', `/${topic}/sharing`)).body.sharedWith).toEqual([
      { reference: chen.profile },
    ]);
  });
});
