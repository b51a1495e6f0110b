// Unit: the live-subscription manager with a fake WebSocket and a fake fetch (SPEC §4 "Live
// subscriptions", §5, §7 live updates, §8): reference counting on one socket, the
// binding-token dance, per-criteria routing, reconnection with backoff and re-binding with the last
// event number, replayed events, the gap signal, every error message, the unknown-subscription
// warning, ping without pong, sign-out.
import type { Bundle, Parameters, Subscription, SubscriptionStatus } from '@medplum/fhirtypes';
import { BloomClient } from '../../../src/client';
import type { WebSocketLike } from '../../../src/client/fhircast';
import type { FhirClient } from '../../../src/client/fhir-client';
import {
  FAILED_TO_GET_TOKEN,
  FAILED_TO_GET_URL,
  INVALID_CLIENT,
  INVALID_URL,
  reconnectDelay,
  SubscriptionManager,
  UNKNOWN_SUBSCRIPTION_WARNING,
} from '../../../src/client/subscriptions';
import type { SubscriptionEmitter, SubscriptionEvent } from '../../../src/client/subscriptions';
import { MemoryStorage, PrefixedStorage } from '../../../src/client/storage';
import { fakeFetch, jsonResponse } from '../support/fake-fetch';
import type { FakeFetch } from '../support/fake-fetch';
import { BASE, signedInClient } from '../support/fhir-client-setup';
import { accessToken } from '../support/tokens';

type Listener = (event: { data: unknown }) => void;

/** A WebSocket the test drives: open(), receive(), drop() as the server would. */
class FakeSocket implements WebSocketLike {
  readonly sent: Record<string, unknown>[] = [];
  closed = false;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  send(data: string): void {
    if (this.closed) throw new Error('send on a closed socket');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(): void {
    this.closed = true;
  }

  fire(type: string, event: { data: unknown } = { data: undefined }): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  open(): void {
    this.fire('open');
  }

  receive(message: unknown): void {
    this.fire('message', { data: typeof message === 'string' ? message : JSON.stringify(message) });
  }

  /** The server went away. */
  drop(): void {
    this.closed = true;
    this.fire('close');
  }

  binds(): { token: string; lastEventNumber?: string }[] {
    return this.sent
      .filter((m) => m.type === 'bind-with-token')
      .map((m) => m.payload as { token: string; lastEventNumber?: string });
  }
}

function status(type: string, subscriptionId: string, extra: Record<string, unknown> = {}): Bundle {
  const resource = {
    resourceType: 'SubscriptionStatus',
    status: 'active',
    type,
    subscription: { reference: `Subscription/${subscriptionId}` },
    ...extra,
  } as SubscriptionStatus;
  return { resourceType: 'Bundle', type: 'history', entry: [{ resource }] };
}

const handshake = (id: string, position = '0') =>
  status('handshake', id, { eventsSinceSubscriptionStart: position });
const event = (id: string, eventNumber: string, communicationId = `c${eventNumber}`): Bundle => {
  const bundle = status('event-notification', id, {
    eventsSinceSubscriptionStart: eventNumber,
    notificationEvent: [{ eventNumber, focus: { reference: `Communication/${communicationId}` } }],
  });
  bundle.entry?.push({
    resource: { resourceType: 'Communication', id: communicationId, status: 'completed' },
  });
  return bundle;
};
const gap = (id: string, last: string) =>
  status('query-status', id, {
    status: 'error',
    eventsSinceSubscriptionStart: last,
    error: [{ coding: [{ code: 'events-missed' }] }],
  });

async function until(condition: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function record(emitter: SubscriptionEmitter): SubscriptionEvent[] {
  const events: SubscriptionEvent[] = [];
  for (const type of [
    'connect',
    'disconnect',
    'error',
    'message',
    'gap',
    'heartbeat',
    'open',
    'close',
  ] as const) {
    emitter.addEventListener(type, (e) => events.push(e));
  }
  return events;
}

const types = (events: SubscriptionEvent[]) => events.map((e) => e.type);

interface Setup {
  client: BloomClient;
  fake: FakeFetch;
  sockets: FakeSocket[];
  manager: SubscriptionManager;
  /** The socket most recently made. */
  socket(): FakeSocket;
}

/** A signed-in client whose server creates Subscriptions sub-1, sub-2… and answers binding tokens. */
function setup(
  tokenAnswer: (id: string) => Parameters = (id) => ({
    resourceType: 'Parameters',
    parameter: [
      { name: 'token', valueString: `token-${id}` },
      { name: 'expiration', valueDateTime: new Date(Date.now() + 3_600_000).toISOString() },
      { name: 'websocket-url', valueUrl: 'ws://api.test/ws/subscriptions-r4' },
    ],
  }),
  pingIntervalMs = 0,
): Setup {
  const sockets: FakeSocket[] = [];
  const fake = fakeFetch();
  fake.on('GET', '/auth/me', () => jsonResponse({}));
  const storage = new PrefixedStorage(new MemoryStorage());
  storage.setObject('activeLogin', {
    accessToken: accessToken(),
    refreshToken: 'r1',
    profile: { reference: 'Patient/maria' },
  });
  const client = new BloomClient({
    baseUrl: BASE,
    fetch: fake.fetch,
    storage,
    subscriptions: {
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      backoff: { minDelay: 5, maxDelay: 20, random: () => 1 },
      pingIntervalMs,
    },
  });
  let created = 0;
  fake.on('POST', '/fhir/R4/Subscription', (call) =>
    jsonResponse(
      { ...(JSON.parse(call.body ?? '{}') as Subscription), id: `sub-${++created}` },
      201,
      'application/fhir+json',
    ),
  );
  fake.on('GET', '/$get-ws-binding-token', (call) =>
    jsonResponse(
      tokenAnswer(/Subscription\/([^/]+)\//.exec(call.url)?.[1] ?? ''),
      200,
      'application/fhir+json',
    ),
  );
  return {
    client,
    fake,
    sockets,
    manager: client.getSubscriptionManager(),
    socket: () => sockets[sockets.length - 1],
  };
}

let warn: jest.SpyInstance;
beforeEach(() => {
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('SPEC §5 a websocket subscription manager needs a valid client and a valid URL', () => {
  test('not a client, not a URL, not a socket URL', () => {
    const { client } = signedInClient();
    expect(() => new SubscriptionManager({} as FhirClient, 'ws://api.test/ws/subscriptions-r4')).toThrow(
      INVALID_CLIENT,
    );
    expect(() => new SubscriptionManager(client, 'not a url')).toThrow(INVALID_URL);
    expect(() => new SubscriptionManager(client, 'ftp://api.test/ws')).toThrow(INVALID_URL);
    // http(s) is accepted and becomes ws(s), as the client's own manager uses its base URL.
    expect(() => new SubscriptionManager(client, 'https://api.test/ws/subscriptions-r4')).not.toThrow();
  });

  test("the client's manager is one per client, on {baseUrl}ws/subscriptions-r4", async () => {
    const s = setup();
    expect(s.client.getSubscriptionManager()).toBe(s.manager);
    s.client.subscribeToCriteria('Communication');
    expect(s.socket().url).toBe(`${BASE.replace('http', 'ws')}ws/subscriptions-r4`);
    s.client.unsubscribeFromCriteria('Communication');
  });
});

describe('SPEC §4 live subscriptions: reference counting on one socket', () => {
  test('the same criteria twice is one Subscription and one emitter; the socket closes with the last reference', async () => {
    const s = setup();
    const first = s.client.subscribeToCriteria('Communication?subject=Patient/maria');
    const second = s.client.subscribeToCriteria('Communication?subject=Patient/maria');
    expect(second).toBe(first);
    const events = record(first);
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the bind');
    expect(s.fake.callsTo('POST', '/fhir/R4/Subscription')).toHaveLength(1);
    const posted = JSON.parse(
      s.fake.callsTo('POST', '/fhir/R4/Subscription')[0].body ?? '{}',
    ) as Subscription;
    expect(posted).toMatchObject({
      resourceType: 'Subscription',
      status: 'active',
      criteria: 'Communication?subject=Patient/maria',
      channel: { type: 'websocket' },
    });
    expect(s.socket().binds()).toEqual([{ token: 'token-sub-1' }]);
    s.socket().receive(handshake('sub-1', '40'));
    expect(types(events)).toEqual(['open', 'connect']);

    s.client.unsubscribeFromCriteria('Communication?subject=Patient/maria');
    expect(s.socket().closed).toBe(false);
    expect(s.socket().sent.some((m) => m.type === 'unbind-from-token')).toBe(false);
    expect(s.manager.getCriteriaCount()).toBe(1);

    s.client.unsubscribeFromCriteria('Communication?subject=Patient/maria');
    expect(s.socket().sent.at(-1)).toEqual({ type: 'unbind-from-token', payload: { token: 'token-sub-1' } });
    expect(s.socket().closed).toBe(true);
    expect(s.manager.isSocketActive()).toBe(false);
    expect(types(events)).toEqual(['open', 'connect', 'disconnect']);
    expect(s.sockets).toHaveLength(1);

    // Once more than subscribed: a warning, nothing else.
    s.client.unsubscribeFromCriteria('Communication?subject=Patient/maria');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not known/));
  });

  test('two criteria share one socket; each emitter hears its own events, the master hears all', async () => {
    const s = setup();
    const maria = record(s.client.subscribeToCriteria('Communication?subject=Patient/maria'));
    const obs = record(s.client.subscribeToCriteria('Observation?subject=Patient/maria'));
    const master = record(s.client.getMasterSubscriptionEmitter());
    expect(s.client.getMasterSubscriptionEmitter().getCriteria()).toEqual(
      new Set(['Communication?subject=Patient/maria', 'Observation?subject=Patient/maria']),
    );
    s.socket().open();
    await until(() => s.socket().binds().length === 2, 'two binds');
    expect(s.sockets).toHaveLength(1);
    s.socket().receive(handshake('sub-1'));
    s.socket().receive(handshake('sub-2'));
    s.socket().receive(event('sub-1', '41'));
    s.socket().receive(status('heartbeat', 'sub-2'));
    expect(types(maria)).toEqual(['open', 'connect', 'message']);
    expect(types(obs)).toEqual(['open', 'connect', 'heartbeat']);
    expect(types(master)).toEqual(['open', 'connect', 'connect', 'message', 'heartbeat']);
    const message = maria[2] as { payload: Bundle };
    expect(message.payload.entry?.[1]?.resource).toMatchObject({ id: 'c41' });

    // SPEC §8: a notification for an unknown subscription logs a warning (and reaches only the master).
    s.socket().receive(event('sub-99', '42'));
    expect(warn).toHaveBeenCalledWith(UNKNOWN_SUBSCRIPTION_WARNING);
    expect(types(maria)).toHaveLength(3);

    s.client.unsubscribeFromCriteria('Communication?subject=Patient/maria');
    expect(s.socket().closed).toBe(false);
    s.client.unsubscribeFromCriteria('Observation?subject=Patient/maria');
    expect(s.socket().closed).toBe(true);
  });

  test('subscription properties make a separate Subscription, created with them', async () => {
    const s = setup();
    const props = { reason: 'inbox', extension: [{ url: 'https://example.org/x', valueString: 'y' }] };
    const plain = s.client.subscribeToCriteria('Communication');
    const withProps = s.client.subscribeToCriteria('Communication', props);
    expect(withProps).not.toBe(plain);
    await until(() => s.fake.callsTo('POST', '/fhir/R4/Subscription').length === 2, 'two creates');
    const bodies = s.fake
      .callsTo('POST', '/fhir/R4/Subscription')
      .map((c) => JSON.parse(c.body ?? '{}') as Subscription);
    expect(bodies.find((b) => b.reason === 'inbox')?.extension).toEqual(props.extension);
    s.client.unsubscribeFromCriteria('Communication', props);
    s.client.unsubscribeFromCriteria('Communication');
  });
});

describe('issue #8 reconnection: backoff, re-binding with the last event number, replay, gap', () => {
  test('reconnectDelay grows by the factor up to the maximum, jittered between half and all of it', () => {
    const full = { random: () => 1 };
    expect([0, 1, 2, 3].map((n) => reconnectDelay(n, full))).toEqual([1000, 1500, 2250, 3375]);
    expect(reconnectDelay(20, full)).toBe(10_000);
    expect(reconnectDelay(0, { random: () => 0 })).toBe(500);
    expect(reconnectDelay(2, { minDelay: 10, factor: 2, maxDelay: 25, random: () => 1 })).toBe(25);
  });

  test('a dropped socket comes back and re-binds with the last event seen; the replayed events are emitted in order', async () => {
    const s = setup();
    const events = record(s.client.subscribeToCriteria('Communication?subject=Patient/maria'));
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the bind');
    s.socket().receive(handshake('sub-1', '40'));
    s.socket().receive(event('sub-1', '41'));
    s.socket().receive(event('sub-1', '45'));
    const first = s.socket();
    first.drop();
    expect(types(events).at(-1)).toBe('close');
    await until(() => s.sockets.length === 2, 'a new socket after the backoff');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the re-bind');
    expect(s.socket().binds()).toEqual([{ token: 'token-sub-1', lastEventNumber: '45' }]);
    // The Subscription is not created again, and its unexpired token is reused.
    expect(s.fake.callsTo('POST', '/fhir/R4/Subscription')).toHaveLength(1);
    expect(s.fake.callsTo('GET', '/$get-ws-binding-token')).toHaveLength(1);
    // The server replays what was missed after the handshake.
    s.socket().receive(handshake('sub-1', '60'));
    s.socket().receive(event('sub-1', '47'));
    s.socket().receive(event('sub-1', '52'));
    const messages = events.filter((e) => e.type === 'message') as { payload: Bundle }[];
    expect(messages.map((m) => m.payload.entry?.[1]?.resource?.id)).toEqual(['c41', 'c45', 'c47', 'c52']);
    expect(types(events)).toEqual([
      'open',
      'connect',
      'message',
      'message',
      'close',
      'open',
      'connect',
      'message',
      'message',
    ]);
    // Another drop: the next re-bind starts after the last replayed event.
    s.socket().drop();
    await until(() => s.sockets.length === 3, 'a third socket');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the third bind');
    expect(s.socket().binds()[0].lastEventNumber).toBe('52');
    s.client.unsubscribeFromCriteria('Communication?subject=Patient/maria');
  });

  test('a client that saw no event re-binds from the handshake position; a failed connection attempt is retried', async () => {
    const s = setup();
    s.client.subscribeToCriteria('Communication');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the bind');
    s.socket().receive(handshake('sub-1', '33'));
    s.socket().drop();
    await until(() => s.sockets.length === 2, 'a second socket');
    // The server is still down: this attempt closes without opening.
    s.socket().drop();
    await until(() => s.sockets.length === 3, 'a third socket');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 're-bind');
    expect(s.socket().binds()[0].lastEventNumber).toBe('33');
    s.client.unsubscribeFromCriteria('Communication');
  });

  test("a gap is emitted as 'gap' on the criteria's emitter and the master, and the next re-bind starts from the new handshake", async () => {
    const s = setup();
    const events = record(s.client.subscribeToCriteria('Communication'));
    const master = record(s.client.getMasterSubscriptionEmitter());
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the bind');
    s.socket().receive(handshake('sub-1', '10'));
    s.socket().receive(event('sub-1', '11'));
    s.socket().drop();
    await until(() => s.sockets.length === 2, 'a new socket');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 're-bind');
    s.socket().receive(handshake('sub-1', '900'));
    s.socket().receive(gap('sub-1', '11'));
    expect(types(events).slice(-2)).toEqual(['connect', 'gap']);
    expect(types(master)).toContain('gap');
    s.socket().drop();
    await until(() => s.sockets.length === 3, 'a third socket');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'third bind');
    expect(s.socket().binds()[0].lastEventNumber).toBe('900');
    s.client.unsubscribeFromCriteria('Communication');
  });

  test('a ping without a pong by the next ping means a dead connection: reconnect', async () => {
    const s = setup(undefined, 20);
    s.client.subscribeToCriteria('Communication');
    s.socket().open();
    await until(() => s.socket().sent.some((m) => m.type === 'ping'), 'a ping');
    // Answered pings keep the socket.
    s.socket().receive({ type: 'pong' });
    await until(() => s.socket().sent.filter((m) => m.type === 'ping').length === 2, 'a second ping');
    expect(s.sockets).toHaveLength(1);
    // Unanswered: a new socket.
    await until(() => s.sockets.length === 2, 'a reconnect after a missing pong');
    expect(s.sockets[0].closed).toBe(true);
    s.client.unsubscribeFromCriteria('Communication');
  });
});

describe('SPEC §8 errors', () => {
  const errorsOf = (events: SubscriptionEvent[]) =>
    events.filter((e) => e.type === 'error').map((e) => (e as { payload: Error }).payload.message);

  test("'Failed to get token' and 'Failed to get URL from $get-ws-binding-token'", async () => {
    const noToken = setup(() => ({
      resourceType: 'Parameters',
      parameter: [{ name: 'websocket-url', valueUrl: 'ws://api.test/ws/subscriptions-r4' }],
    }));
    const a = record(noToken.client.subscribeToCriteria('Communication'));
    await until(() => errorsOf(a).length === 1, 'the token error');
    expect(errorsOf(a)).toEqual([FAILED_TO_GET_TOKEN]);
    expect(FAILED_TO_GET_TOKEN).toBe('Failed to get token');

    const noUrl = setup(() => ({
      resourceType: 'Parameters',
      parameter: [{ name: 'token', valueString: 't' }],
    }));
    const b = record(noUrl.client.subscribeToCriteria('Communication'));
    await until(() => errorsOf(b).length === 1, 'the URL error');
    expect(errorsOf(b)).toEqual(['Failed to get URL from $get-ws-binding-token']);
    expect(FAILED_TO_GET_URL).toBe('Failed to get URL from $get-ws-binding-token');
    noToken.client.unsubscribeFromCriteria('Communication');
    noUrl.client.unsubscribeFromCriteria('Communication');
  });

  test("a socket failure is 'WebSocket error'; a server error message and non-JSON are errors too; the socket stays", async () => {
    const s = setup();
    const events = record(s.client.subscribeToCriteria('Communication'));
    s.socket().open();
    s.socket().fire('error');
    expect(errorsOf(events)).toEqual(['WebSocket error']);
    s.socket().receive({
      type: 'error',
      payload: {
        resourceType: 'OperationOutcome',
        issue: [
          { severity: 'error', code: 'invalid', details: { text: 'Invalid or expired binding token' } },
        ],
      },
    });
    const master = record(s.client.getMasterSubscriptionEmitter());
    s.socket().receive({
      type: 'error',
      payload: {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'invalid', details: { text: 'Subscription/x not found' } }],
      },
    });
    expect(errorsOf(master)).toEqual(['Subscription/x not found']);
    s.socket().receive('not json');
    expect(errorsOf(events)).toHaveLength(2);
    s.socket().receive({ resourceType: 'Bundle', entry: [] });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/without a SubscriptionStatus/));
    expect(s.sockets).toHaveLength(1);
    s.client.unsubscribeFromCriteria('Communication');
  });

  test("without any WebSocket in the environment: 'WebSocket error'", async () => {
    const { client } = signedInClient();
    const original = (globalThis as { WebSocket?: unknown }).WebSocket;
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    try {
      const manager = new SubscriptionManager(client, 'ws://api.test/ws/subscriptions-r4', {
        backoff: { minDelay: 10_000 },
      });
      const master = record(manager.getMasterEmitter());
      manager.addCriteria('Communication');
      expect(errorsOf(master)).toContain('WebSocket error');
      manager.closeWebSocket();
    } finally {
      (globalThis as { WebSocket?: unknown }).WebSocket = original;
    }
  });
});

describe('a change of person', () => {
  test('signing out closes the socket and drops every criteria', async () => {
    const s = setup();
    const events = record(s.client.subscribeToCriteria('Communication'));
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the bind');
    s.socket().receive(handshake('sub-1'));
    s.client.clear();
    expect(s.socket().closed).toBe(true);
    expect(s.manager.getCriteriaCount()).toBe(0);
    expect(types(events)).toContain('disconnect');
  });

  test("another person's login gets new Subscriptions of their own on a new connection; a token refresh changes nothing", async () => {
    const s = setup();
    s.client.subscribeToCriteria('Communication');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'the bind');
    s.socket().receive(handshake('sub-1', '5'));
    const login = s.client.getActiveLogin();
    await s.client.setActiveLogin({
      ...login,
      accessToken: accessToken({ id: 'login-2' }),
    } as typeof login & {
      accessToken: string;
    });
    expect(s.sockets).toHaveLength(1);
    await s.client.setActiveLogin({ accessToken: accessToken(), profile: { reference: 'Patient/aisha' } });
    await until(() => s.sockets.length === 2, 'a new connection');
    s.socket().open();
    await until(() => s.socket().binds().length === 1, 'a bind as the new person');
    expect(s.fake.callsTo('POST', '/fhir/R4/Subscription')).toHaveLength(2);
    expect(s.socket().binds()).toEqual([{ token: 'token-sub-2' }]);
    s.client.unsubscribeFromCriteria('Communication');
  });
});
