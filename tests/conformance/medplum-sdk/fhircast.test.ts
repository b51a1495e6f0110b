// Medplum's own MedplumClient (@medplum/core 5.2.13, unchanged) on Bloom's FHIRcast hub over real
// HTTP and WebSockets: fhircastSubscribe (a form to the hub URL), fhircastConnect,
// fhircastPublish (JSON to the hub URL itself, the topic inside the event, as Medplum 5.x sends
// it), fhircastGetContext and fhircastUnsubscribe. PGlite, and PostgreSQL with TEST_DATABASE_URL.
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
import { addMembership, createProject, createUser, signIn } from '../../server/auth/support/auth-fixtures';
import type { Tokens } from '../../server/auth/support/auth-fixtures';
import { databases } from '../../server/support/test-databases';
import { startTestServer } from '../../server/support/test-server';
import type { TestServer } from '../../server/support/test-server';
import { medplumClient } from './support/medplum-client';

const patient = (id: string) => ({
  key: 'patient' as const,
  resource: { resourceType: 'Patient' as const, id },
});

/** The next `type` event of `connection`, or a failure after 5 s. */
function next<T>(connection: FhircastConnection, type: 'connect' | 'disconnect' | 'message'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within 5 s`)), 5000);
    const listener = (event: FhircastConnectEvent | FhircastDisconnectEvent | FhircastMessageEvent) => {
      clearTimeout(timer);
      connection.removeEventListener(type, listener);
      resolve(('payload' in event ? event.payload : undefined) as T);
    };
    connection.addEventListener(type, listener);
  });
}

describe.each(databases())('MedplumClient on the FHIRcast hub (issue #20) on %s', (_engine, kind) => {
  let server: TestServer;
  let publisher: MedplumClient;
  let subscriber: MedplumClient;
  let publisherToken: string;
  let subscriberProfile: { reference: string };
  const connections: FhircastConnection[] = [];

  beforeAll(async () => {
    // 300 ms heartbeats: a receiver has one heartbeat period to acknowledge an event.
    server = await startTestServer(kind, { LIVE_HEARTBEAT_INTERVAL: '300' }, { requireAuth: true });
    const project = await createProject(server.db, 'Reading Room');
    const member = async (): Promise<Tokens> => {
      const user = await createUser(server.db);
      await addMembership(server.db, user, project, 'Practitioner');
      return signIn(server.baseUrl, user.email as string);
    };
    const [publisherTokens, subscriberTokens] = await Promise.all([member(), member()]);
    publisherToken = publisherTokens.access_token;
    const subscriberToken = subscriberTokens.access_token;
    subscriberProfile = subscriberTokens.profile as { reference: string };
    publisher = await medplumClient(server.baseUrl);
    publisher.setAccessToken(publisherToken);
    subscriber = await medplumClient(server.baseUrl);
    subscriber.setAccessToken(subscriberToken);
  });

  afterEach(() => {
    for (const connection of connections.splice(0)) connection.disconnect();
  });

  afterAll(async () => {
    await server.close();
  });

  async function connected(subscription: SubscriptionRequest): Promise<FhircastConnection> {
    const connection = subscriber.fhircastConnect(subscription);
    connections.push(connection);
    await next(connection, 'connect');
    return connection;
  }

  /**
   * A new topic of the publisher's, shared with the subscriber: a topic belongs to whoever first
   * used it. Sharing is Bloom's own call (Medplum's hub has none), so it is sent with fetch.
   */
  async function sharedTopic(): Promise<string> {
    const topic = crypto.randomUUID();
    const response = await fetch(`${server.baseUrl}fhircast/STU3/${topic}/sharing`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${publisherToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sharedWith: [subscriberProfile] }),
    });
    expect(response.status).toBe(200);
    return topic;
  }

  test('fhircastSubscribe answers a websocket endpoint of this hub for the topic', async () => {
    const topic = crypto.randomUUID();
    const subscription = await subscriber.fhircastSubscribe(topic, ['Patient-open', 'Patient-close']);
    expect(subscription).toEqual({
      channelType: 'websocket',
      mode: 'subscribe',
      topic,
      events: ['Patient-open', 'Patient-close'],
      endpoint: expect.stringMatching(
        new RegExp(`^${server.baseUrl.replace(/^http/, 'ws')}ws/fhircast/[\\w-]+$`),
      ),
    });
  });

  test('fhircastConnect opens the endpoint; fhircastPublish to the hub URL reaches it and is acknowledged', async () => {
    const topic = await sharedTopic();
    const connection = await connected(await subscriber.fhircastSubscribe(topic, ['Patient-open']));
    // The publisher hears of an event its receivers did not acknowledge as a syncerror.
    const watch = publisher.fhircastConnect(await publisher.fhircastSubscribe(topic, ['syncerror']));
    connections.push(watch);
    await next(watch, 'connect');
    const syncErrors: unknown[] = [];
    watch.addEventListener('message', (event) => syncErrors.push(event.payload));
    const received = next<FhircastMessagePayload>(connection, 'message');
    const answer = await publisher.fhircastPublish(topic, 'Patient-open', [patient('p1')]);
    // Bloom answers the message as delivered (Medplum wraps it as {success, event}): the event with
    // the hub's context.versionId.
    expect(answer).toEqual({
      timestamp: expect.any(String),
      id: expect.any(String),
      event: {
        'hub.topic': topic,
        'hub.event': 'Patient-open',
        context: [patient('p1')],
        'context.versionId': expect.any(String),
      },
    });
    const message = await received;
    expect(message).toEqual(answer);
    // Past the acknowledgement window (one 300 ms heartbeat): MedplumClient's {id, timestamp} counted.
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(syncErrors).toEqual([]);
  });

  test('the hub URL answers a published event 202, as Medplum does; a subscription sent as JSON is told to use a form', async () => {
    const topic = crypto.randomUUID();
    const send = (contentType: string, body: unknown) =>
      fetch(`${server.baseUrl}fhircast/STU3`, {
        method: 'POST',
        headers: { authorization: `Bearer ${publisherToken}`, 'content-type': contentType },
        body: JSON.stringify(body),
      });
    const event = {
      timestamp: new Date().toISOString(),
      id: crypto.randomUUID(),
      event: { 'hub.topic': topic, 'hub.event': 'Patient-open', context: [patient('p2')] },
    };
    for (const type of ['application/json', 'application/fhir+json; charset=utf-8']) {
      const response = await send(type, { ...event, id: crypto.randomUUID() });
      expect({ type, status: response.status }).toEqual({ type, status: 202 });
    }
    const subscribeAsJson = await send('application/json', { 'hub.mode': 'subscribe', 'hub.topic': topic });
    expect(subscribeAsJson.status).toBe(400);
    expect(await subscribeAsJson.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ details: { text: 'Send the subscription request as application/x-www-form-urlencoded' } }],
    });
  });

  test('fhircastGetContext answers the open context, and the empty one after a close', async () => {
    const topic = await sharedTopic();
    await expect(subscriber.fhircastGetContext(topic)).resolves.toEqual({ 'context.type': '', context: [] });
    const opened = await publisher.fhircastPublish(topic, 'Patient-open', [patient('p3')]);
    await expect(subscriber.fhircastGetContext(topic)).resolves.toEqual({
      'context.type': 'Patient',
      'context.versionId': (opened as { event: { 'context.versionId': string } }).event['context.versionId'],
      context: [patient('p3')],
    });
    await publisher.fhircastPublish(topic, 'Patient-close', [patient('p3')]);
    await expect(subscriber.fhircastGetContext(topic)).resolves.toEqual({ 'context.type': '', context: [] });
  });

  test('fhircastUnsubscribe ends the subscription: 202, the socket is closed, later events are not sent', async () => {
    const topic = await sharedTopic();
    const subscription = await subscriber.fhircastSubscribe(topic, ['Patient-open']);
    const connection = await connected(subscription);
    const disconnected = next(connection, 'disconnect');
    let messages = 0;
    connection.addEventListener('message', () => {
      messages += 1;
    });
    await expect(subscriber.fhircastUnsubscribe(subscription)).resolves.toBeUndefined();
    await disconnected;
    await publisher.fhircastPublish(topic, 'Patient-open', [patient('p4')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages).toBe(0);
  });
});
