// Client rules (SPEC §5 remote-context subscribe and publish; §8 'Invalid response!'):
// every rule refuses with its exact message (written out here, so a changed text fails) before
// anything is sent. The hub applies the same module (src/fhir/fhircast), tested over HTTP in
// tests/server/fhircast*.
import {
  FhircastConnection,
  fhircastGetContext,
  fhircastPublish,
  fhircastSubscribe,
  fhircastUnsubscribe,
} from '../../../src/client/fhircast';
import type { FhircastHttp, WebSocketLike } from '../../../src/client/fhircast';
import { FHIRCAST_EVENTS, validateSubscriptionRequest } from '../../../src/fhir/fhircast';
import type { FhircastSubscriptionRequest } from '../../../src/fhir/fhircast';
import { OperationOutcomeError } from '../../../src/fhir/outcomes';

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
    ['an empty topic', '', ['Patient-open'], 'Topic must be a non-empty string'],
    [
      'a topic that is not a string',
      42 as unknown as string,
      ['Patient-open'],
      'Topic must be a non-empty string',
    ],
    ['no events', 't', [], 'Events must be a non-empty array of event names'],
    [
      'events that are not an array',
      't',
      'Patient-open' as unknown as string[],
      'Events must be a non-empty array of event names',
    ],
    ['an unknown event', 't', ['Patient-open', 'Patient-dance'], 'Unknown FHIRcast event: Patient-dance'],
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
    ['channel type other than websocket', { channelType: 'webhook' }, "Channel type must be 'websocket'"],
    [
      'mode other than subscribe/unsubscribe',
      { mode: 'denied' },
      "Mode must be 'subscribe' or 'unsubscribe'",
    ],
    [
      'an endpoint not beginning with ws',
      { endpoint: 'http://hub/x' },
      "Endpoint must be a URL beginning with 'ws'",
    ],
    [
      'unsubscribe without an endpoint',
      { mode: 'unsubscribe' },
      "Unsubscribing needs the subscription's endpoint (a URL beginning with 'ws')",
    ],
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
    expect(await refusal(fhircastUnsubscribe(http, subscribed))).toBe(
      "Unsubscribing needs the subscription's endpoint (a URL beginning with 'ws')",
    );
    expect(await refusal(fhircastUnsubscribe(http, { ...subscribed, endpoint: 'https://x' }))).toBe(
      "Endpoint must be a URL beginning with 'ws'",
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
    [
      'no topic',
      '',
      'Patient-open',
      { key: 'patient', resource: patient },
      undefined,
      'Topic must be a non-empty string',
    ],
    [
      'an unknown event',
      't',
      'Patient-opened',
      { key: 'patient', resource: patient },
      undefined,
      'Unknown FHIRcast event: Patient-opened',
    ],
    [
      'a context that is a string',
      't',
      'Patient-open',
      'patient',
      undefined,
      'Context must be an object or an array of objects',
    ],
    [
      'a null context',
      't',
      'Patient-open',
      null,
      undefined,
      'Context must be an object or an array of objects',
    ],
    [
      'an array with an entry that is no object',
      't',
      'Patient-open',
      many({ key: 'patient', resource: patient }, 'patient'),
      undefined,
      'Context must be an object or an array of objects',
    ],
    [
      'DiagnosticReport-update without a version id',
      't',
      'DiagnosticReport-update',
      [],
      undefined,
      'The DiagnosticReport-update event needs a context.versionId',
    ],
    [
      'a key not valid for the event',
      't',
      'Patient-open',
      { key: 'report', resource: report },
      undefined,
      "context[0]: key 'report' is not valid for the Patient-open event",
    ],
    [
      'a resource without an id',
      't',
      'Patient-open',
      { key: 'patient', resource: { resourceType: 'Patient' } },
      undefined,
      'context[0]: the resource needs a string id',
    ],
    [
      'a numeric id',
      't',
      'Patient-open',
      { key: 'patient', resource: { resourceType: 'Patient', id: 7 } },
      undefined,
      'context[0]: the resource needs a string id',
    ],
    [
      'a resource without a resourceType',
      't',
      'Patient-open',
      { key: 'patient', resource: { id: 'p1' } },
      undefined,
      'context[0]: the resource needs a resourceType',
    ],
    [
      'no resource at all',
      't',
      'Patient-open',
      { key: 'patient' },
      undefined,
      'context[0]: the resource must be an object',
    ],
    [
      'the wrong resource type for the key',
      't',
      'DiagnosticReport-open',
      many({ key: 'report', resource: patient }, { key: 'patient', resource: patient }),
      undefined,
      "context[0]: key 'report' expects a DiagnosticReport, got Patient",
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
      "context[1]: key 'select' needs a reference",
    ],
    [
      'a missing required key',
      't',
      'DiagnosticReport-open',
      { key: 'report', resource: report },
      undefined,
      "The DiagnosticReport-open event needs a 'patient' context entry",
    ],
    [
      'a key not marked many appearing twice',
      't',
      'Patient-open',
      many({ key: 'patient', resource: patient }, { key: 'patient', resource: { ...patient, id: 'p2' } }),
      undefined,
      "The Patient-open event allows one 'patient' context entry, got 2",
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

// SPEC §3 context keys per event (FHIRcast STU3): the smallest context each event accepts; without
// any one of its required keys it is refused, naming the key.
const reference = (type: string, id: string) => ({ reference: `${type}/${id}` });
const EVENT_CONTEXTS: [string, { key: string; resource?: unknown; reference?: unknown }[]][] = [
  ['Patient-open', [{ key: 'patient', resource: patient }]],
  ['Patient-close', [{ key: 'patient', resource: patient }]],
  ['ImagingStudy-open', [{ key: 'study', resource: { resourceType: 'ImagingStudy', id: 's1' } }]],
  ['ImagingStudy-close', [{ key: 'study', resource: { resourceType: 'ImagingStudy', id: 's1' } }]],
  [
    'Encounter-open',
    [
      { key: 'encounter', resource: { resourceType: 'Encounter', id: 'e1' } },
      { key: 'patient', resource: patient },
    ],
  ],
  [
    'Encounter-close',
    [
      { key: 'encounter', resource: { resourceType: 'Encounter', id: 'e1' } },
      { key: 'patient', resource: patient },
    ],
  ],
  [
    'DiagnosticReport-open',
    [
      { key: 'report', resource: report },
      { key: 'patient', resource: patient },
    ],
  ],
  [
    'DiagnosticReport-close',
    [
      { key: 'report', resource: report },
      { key: 'patient', resource: patient },
    ],
  ],
  [
    'DiagnosticReport-select',
    [
      { key: 'report', reference: reference('DiagnosticReport', 'r1') },
      { key: 'select', reference: reference('Observation', 'o1') },
    ],
  ],
  [
    'DiagnosticReport-update',
    [
      { key: 'report', reference: reference('DiagnosticReport', 'r1') },
      { key: 'updates', resource: { resourceType: 'Bundle', id: 'b1', type: 'transaction' } },
    ],
  ],
  [
    'syncerror',
    [{ key: 'operationoutcome', resource: { resourceType: 'OperationOutcome', id: 'o1', issue: [] } }],
  ],
];

describe('issue #11 context keys of each event (SPEC §3, §5)', () => {
  test('the table covers every event', () => {
    expect(EVENT_CONTEXTS.map(([event]) => event).sort()).toEqual([...FHIRCAST_EVENTS].sort());
  });

  test.each(EVENT_CONTEXTS)('%s: its smallest context is published', async (event, context) => {
    const http = fakeHttp({});
    await fhircastPublish(http, 't', event, context, 'v1');
    expect((http.sent[0].body as { event: { context: unknown } }).event.context).toEqual(context);
  });

  test.each(
    EVENT_CONTEXTS.flatMap(([event, context]) =>
      context.map((entry) => [event, entry.key, context] as const),
    ),
  )('%s without its %s entry is refused, naming it', async (event, key, context) => {
    const http = fakeHttp({});
    const without = context.filter((entry) => entry.key !== key);
    expect(await refusal(fhircastPublish(http, 't', event, without, 'v1'))).toBe(
      `The ${event} event needs a '${key}' context entry`,
    );
    expect(http.sent).toHaveLength(0);
  });

  test.each([
    ['ImagingStudy-open', 'encounter', { resourceType: 'Encounter', id: 'e1' }],
    ['ImagingStudy-open', 'patient', patient],
    ['DiagnosticReport-open', 'encounter', { resourceType: 'Encounter', id: 'e1' }],
  ])('%s may also carry %s, once', async (event, key, resource) => {
    const http = fakeHttp({});
    const base = EVENT_CONTEXTS.find(([name]) => name === event)?.[1] ?? [];
    await fhircastPublish(http, 't', event, [...base, { key, resource }]);
    expect(http.sent).toHaveLength(1);
    expect(
      await refusal(fhircastPublish(http, 't', event, [...base, { key, resource }, { key, resource }])),
    ).toBe(`The ${event} event allows one '${key}' context entry, got 2`);
  });

  test.each([
    ['Patient-open', 'encounter'],
    ['Encounter-open', 'report'],
    ['DiagnosticReport-select', 'updates'],
    ['syncerror', 'patient'],
  ])('%s refuses a %s entry', async (event, key) => {
    const base = EVENT_CONTEXTS.find(([name]) => name === event)?.[1] ?? [];
    expect(
      await refusal(fhircastPublish(fakeHttp(), 't', event, [...base, { key, resource: patient }], 'v1')),
    ).toBe(`context[${base.length}]: key '${key}' is not valid for the ${event} event`);
  });
});

describe('issue #11 fhircastGetContext', () => {
  test('GETs fhircast/STU3/{topic}; refuses an empty topic', async () => {
    const http = fakeHttp({ 'context.type': '', context: [] });
    await expect(fhircastGetContext(http, 'a/b')).resolves.toEqual({ 'context.type': '', context: [] });
    expect(http.sent[0].url).toBe('fhircast/STU3/a%2Fb');
    expect(await refusal(fhircastGetContext(http, ''))).toBe('Topic must be a non-empty string');
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
    expect(await refusal(() => new FhircastConnection(request, {}, () => new FakeSocket()))).toBe(
      "Endpoint must be a URL beginning with 'ws'",
    );
  });
});
