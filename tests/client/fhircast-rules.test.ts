// Issue #11 client rules (SPEC §5 remote-context subscribe and publish; §8 'Invalid response!'):
// every rule refuses with its exact message before anything is sent. The hub applies the same
// module (src/fhir/fhircast), tested over HTTP in tests/server/fhircast*.
import {
  FhircastConnection,
  fhircastGetContext,
  fhircastPublish,
  fhircastSubscribe,
  fhircastUnsubscribe,
} from '../../src/client/fhircast';
import type { FhircastHttp, WebSocketLike } from '../../src/client/fhircast';
import { FHIRCAST_MESSAGES as M, validateSubscriptionRequest } from '../../src/fhir/fhircast';
import type { FhircastSubscriptionRequest } from '../../src/fhir/fhircast';
import { OperationOutcomeError } from '../../src/fhir/outcomes';

interface Sent {
  url: string;
  body: unknown;
  contentType?: string;
  options?: unknown;
}

function fakeHttp(answer: unknown = { 'hub.channel.endpoint': 'ws://hub/ws/fhircast/abc' }): FhircastHttp & {
  sent: Sent[];
} {
  const sent: Sent[] = [];
  return {
    sent,
    async post<T>(url: string, body: unknown, contentType?: string, options?: unknown): Promise<T> {
      sent.push({ url, body, contentType, ...(options ? { options } : {}) });
      return answer as T;
    },
    async get<T>(url: string): Promise<T> {
      sent.push({ url, body: undefined });
      return answer as T;
    },
  };
}

const patient = { resourceType: 'Patient', id: 'p1' };
const report = { resourceType: 'DiagnosticReport', id: 'r1' };
const ENDPOINT = 'ws://hub/ws/fhircast/abc';

async function refusal(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (err) {
    expect(err).toBeInstanceOf(OperationOutcomeError);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('issue #11 fhircastSubscribe (SPEC §5)', () => {
  test('sends the form and returns the request with the endpoint the hub answered', async () => {
    const http = fakeHttp();
    const request = await fhircastSubscribe(http, 'topic-1', ['Patient-open', 'Patient-close']);
    expect(request).toEqual({
      channelType: 'websocket',
      mode: 'subscribe',
      topic: 'topic-1',
      events: ['Patient-open', 'Patient-close'],
      endpoint: ENDPOINT,
    });
    expect(http.sent[0].url).toBe('fhircast/STU3');
    expect(http.sent[0].contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(http.sent[0].body as string))).toEqual({
      'hub.channel.type': 'websocket',
      'hub.mode': 'subscribe',
      'hub.topic': 'topic-1',
      'hub.events': 'Patient-open,Patient-close',
    });
  });

  test.each([
    ['an empty topic', '', ['Patient-open'], M.topic],
    ['a topic that is not a string', 42 as unknown as string, ['Patient-open'], M.topic],
    ['no events', 't', [], M.events],
    ['events that are not an array', 't', 'Patient-open' as unknown as string[], M.events],
    ['an unknown event', 't', ['Patient-open', 'Patient-dance'], M.unknownEvent('Patient-dance')],
  ])('refuses %s with its message and sends nothing', async (_name, topic, events, message) => {
    const http = fakeHttp();
    expect(await refusal(fhircastSubscribe(http, topic, events))).toBe(message);
    expect(http.sent).toHaveLength(0);
  });

  test("'Invalid response!' when the hub answers without an endpoint (SPEC §8)", async () => {
    await expect(fhircastSubscribe(fakeHttp({}), 't', ['Patient-open'])).rejects.toThrow(
      new Error('Invalid response!'),
    );
    await expect(
      fhircastSubscribe(fakeHttp({ 'hub.channel.endpoint': '' }), 't', ['Patient-open']),
    ).rejects.toThrow('Invalid response!');
    await expect(fhircastSubscribe(fakeHttp(null), 't', ['Patient-open'])).rejects.toThrow(
      'Invalid response!',
    );
  });
});

describe('issue #11 subscription request rules (SPEC §5)', () => {
  const good: FhircastSubscriptionRequest = {
    channelType: 'websocket',
    mode: 'subscribe',
    topic: 't',
    events: ['syncerror'],
  };
  test.each([
    ['channel type other than websocket', { channelType: 'webhook' }, M.channelType],
    ['mode other than subscribe/unsubscribe', { mode: 'denied' }, M.mode],
    ['an endpoint not beginning with ws', { endpoint: 'http://hub/x' }, M.endpoint],
    ['unsubscribe without an endpoint', { mode: 'unsubscribe' }, M.unsubscribeEndpoint],
  ])('refuses %s', async (_name, change, message) => {
    expect(await refusal(() => validateSubscriptionRequest({ ...good, ...change }))).toBe(message);
  });

  test('accepts a ws or wss endpoint', () => {
    expect(() => validateSubscriptionRequest({ ...good, endpoint: 'wss://hub/x' })).not.toThrow();
    expect(() =>
      validateSubscriptionRequest({ ...good, mode: 'unsubscribe', endpoint: 'ws://x' }),
    ).not.toThrow();
  });
});

describe('issue #11 fhircastUnsubscribe (SPEC §5)', () => {
  const subscribed = { channelType: 'websocket', mode: 'subscribe', topic: 't', events: ['Patient-open'] };

  test('needs an endpoint', async () => {
    const http = fakeHttp();
    expect(await refusal(fhircastUnsubscribe(http, subscribed))).toBe(M.unsubscribeEndpoint);
    expect(await refusal(fhircastUnsubscribe(http, { ...subscribed, endpoint: 'https://x' }))).toBe(
      M.endpoint,
    );
    expect(http.sent).toHaveLength(0);
  });

  test('posts mode unsubscribe with the endpoint', async () => {
    const http = fakeHttp();
    await fhircastUnsubscribe(http, { ...subscribed, endpoint: ENDPOINT });
    const form = new URLSearchParams(http.sent[0].body as string);
    expect(form.get('hub.mode')).toBe('unsubscribe');
    expect(form.get('hub.channel.endpoint')).toBe(ENDPOINT);
  });
});

describe('issue #11 fhircastPublish (SPEC §5)', () => {
  test('posts {timestamp, id, event} to fhircast/STU3/{topic}, a single context made an array', async () => {
    const http = fakeHttp({ ok: true });
    await fhircastPublish(http, 'my topic', 'Patient-open', { key: 'patient', resource: patient });
    expect(http.sent[0].url).toBe('fhircast/STU3/my%20topic');
    const body = http.sent[0].body as { timestamp: string; id: string; event: Record<string, unknown> };
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
    expect(body.id).toMatch(/.{8,}/);
    expect(body.event).toEqual({
      'hub.topic': 'my topic',
      'hub.event': 'Patient-open',
      context: [{ key: 'patient', resource: patient }],
    });
  });

  test('keepalive is handed to the request (a close sent while the page goes away)', async () => {
    const http = fakeHttp({});
    const context = { key: 'patient', resource: patient };
    await fhircastPublish(http, 't', 'Patient-close', context, undefined, { keepalive: true });
    await fhircastPublish(http, 't', 'Patient-open', context);
    expect(http.sent.map((sent) => sent.options)).toEqual([{ keepalive: true }, undefined]);
  });

  test('DiagnosticReport-update carries context.versionId', async () => {
    const http = fakeHttp({});
    const context = [
      { key: 'report', reference: { reference: 'DiagnosticReport/r1' } },
      { key: 'updates', resource: { resourceType: 'Bundle', id: 'b1', type: 'transaction' } },
    ];
    await fhircastPublish(http, 't', 'DiagnosticReport-update', context, 'v-1');
    expect((http.sent[0].body as { event: Record<string, unknown> }).event['context.versionId']).toBe('v-1');
  });

  const many = (...entries: unknown[]): unknown[] => entries;
  test.each([
    ['no topic', '', 'Patient-open', { key: 'patient', resource: patient }, undefined, M.topic],
    [
      'an unknown event',
      't',
      'Patient-opened',
      { key: 'patient', resource: patient },
      undefined,
      M.unknownEvent('Patient-opened'),
    ],
    ['a context that is a string', 't', 'Patient-open', 'patient', undefined, M.context],
    ['a null context', 't', 'Patient-open', null, undefined, M.context],
    [
      'DiagnosticReport-update without a version id',
      't',
      'DiagnosticReport-update',
      [],
      undefined,
      M.versionId('DiagnosticReport-update'),
    ],
    [
      'a key not valid for the event',
      't',
      'Patient-open',
      { key: 'report', resource: report },
      undefined,
      M.badKey(0, 'report', 'Patient-open'),
    ],
    [
      'a resource without an id',
      't',
      'Patient-open',
      { key: 'patient', resource: { resourceType: 'Patient' } },
      undefined,
      M.id(0),
    ],
    [
      'a numeric id',
      't',
      'Patient-open',
      { key: 'patient', resource: { resourceType: 'Patient', id: 7 } },
      undefined,
      M.id(0),
    ],
    [
      'a resource without a resourceType',
      't',
      'Patient-open',
      { key: 'patient', resource: { id: 'p1' } },
      undefined,
      M.resourceType(0),
    ],
    ['no resource at all', 't', 'Patient-open', { key: 'patient' }, undefined, M.notObject(0)],
    [
      'the wrong resource type for the key',
      't',
      'DiagnosticReport-open',
      many({ key: 'report', resource: patient }, { key: 'patient', resource: patient }),
      undefined,
      M.wrongType(0, 'report', 'DiagnosticReport', 'Patient'),
    ],
    [
      'a select entry without a reference',
      't',
      'DiagnosticReport-select',
      many(
        { key: 'report', reference: { reference: 'DiagnosticReport/r1' } },
        { key: 'select', resource: patient },
      ),
      undefined,
      M.reference(1, 'select'),
    ],
    [
      'a missing required key',
      't',
      'DiagnosticReport-open',
      { key: 'report', resource: report },
      undefined,
      M.missingKey('patient', 'DiagnosticReport-open'),
    ],
    [
      'a key not marked many appearing twice',
      't',
      'Patient-open',
      many({ key: 'patient', resource: patient }, { key: 'patient', resource: { ...patient, id: 'p2' } }),
      undefined,
      M.repeatedKey('patient', 'Patient-open', 2),
    ],
  ])(
    'refuses %s with its message and sends nothing',
    async (_n, topic, event, context, versionId, message) => {
      const http = fakeHttp();
      expect(await refusal(fhircastPublish(http, topic, event, context, versionId))).toBe(message);
      expect(http.sent).toHaveLength(0);
    },
  );

  test('keys marked many may repeat (study on DiagnosticReport-open, select)', async () => {
    const http = fakeHttp({});
    await fhircastPublish(http, 't', 'DiagnosticReport-open', [
      { key: 'report', resource: report },
      { key: 'patient', resource: patient },
      { key: 'study', resource: { resourceType: 'ImagingStudy', id: 's1' } },
      { key: 'study', resource: { resourceType: 'ImagingStudy', id: 's2' } },
    ]);
    await fhircastPublish(http, 't', 'DiagnosticReport-select', [
      { key: 'report', reference: { reference: 'DiagnosticReport/r1' } },
      { key: 'select', reference: { reference: 'Observation/o1' } },
      { key: 'select', reference: { reference: 'Observation/o2' } },
    ]);
    expect(http.sent).toHaveLength(2);
  });
});

describe('issue #11 fhircastGetContext', () => {
  test('GETs fhircast/STU3/{topic}; refuses an empty topic', async () => {
    const http = fakeHttp({ 'context.type': '', context: [] });
    await expect(fhircastGetContext(http, 'a/b')).resolves.toEqual({ 'context.type': '', context: [] });
    expect(http.sent[0].url).toBe('fhircast/STU3/a%2Fb');
    expect(await refusal(fhircastGetContext(http, ''))).toBe(M.topic);
  });
});

describe('issue #11 FhircastConnection (SPEC §7 acknowledgement, §8 WebSocket error)', () => {
  class FakeSocket implements WebSocketLike {
    sent: string[] = [];
    closed = false;
    listeners = new Map<string, ((event: { data: unknown }) => void)[]>();
    send(data: string): void {
      this.sent.push(data);
    }
    close(): void {
      this.closed = true;
    }
    addEventListener(type: string, listener: (event: { data: unknown }) => void): void {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    emit(type: string, data?: unknown): void {
      for (const l of this.listeners.get(type) ?? []) l({ data });
    }
  }
  const request = { channelType: 'websocket', mode: 'subscribe', topic: 't', events: ['Patient-open'] };

  test('acknowledges events with their id, never heartbeats or control messages', () => {
    const socket = new FakeSocket();
    const received: string[] = [];
    const errors: string[] = [];
    const connection = new FhircastConnection(
      { ...request, endpoint: ENDPOINT },
      { onMessage: (m) => received.push(m.id), onError: (e) => errors.push(e.message) },
      () => socket,
    );
    socket.emit('message', JSON.stringify({ id: 'h1', timestamp: 'x', event: { 'hub.event': 'heartbeat' } }));
    socket.emit('message', JSON.stringify({ 'hub.mode': 'subscribe', 'hub.topic': 't' }));
    socket.emit('message', 'not json');
    socket.emit(
      'message',
      JSON.stringify({ id: 'e1', timestamp: 'x', event: { 'hub.event': 'Patient-open', context: [] } }),
    );
    expect(received).toEqual(['e1']);
    expect(socket.sent.map((s) => JSON.parse(s) as { id: string })).toEqual([
      expect.objectContaining({ id: 'e1' }),
    ]);
    socket.emit('error');
    expect(errors).toEqual(['WebSocket error']);
    connection.disconnect();
    expect(socket.closed).toBe(true);
  });

  test('needs an endpoint beginning with ws', async () => {
    expect(await refusal(() => new FhircastConnection(request, {}, () => new FakeSocket()))).toBe(M.endpoint);
  });
});
