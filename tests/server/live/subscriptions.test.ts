// Live updates over real HTTP and real WebSockets (SPEC §3 Subscription, §7 Subscription
// calls and live updates): $get-ws-binding-token, bind-with-token, event notifications, heartbeats,
// errors, unbind, and re-binding with the last event seen (missed events or a gap signal).
import type { Parameters, Resource, Subscription } from '@medplum/fhirtypes';
import { SigningKeys } from '../../../src/server/auth/signing-key';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import {
  errorText,
  eventNumberOf,
  focusOf,
  isError,
  isStatus,
  LiveSocket,
  statusOf,
} from './support/live-socket';
import type { LiveMessage } from './support/live-socket';

const LOG_SIZE = 6;

describe.each(databases())('SPEC §7 live updates over /ws/subscriptions-r4 on %s', (_engine, kind) => {
  let server: TestServer;
  const sockets: LiveSocket[] = [];

  async function fhir<T = Record<string, unknown>>(method: string, path: string, body?: unknown) {
    const response = await fetch(server.fhirUrl + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/fhir+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  async function create<T extends Resource>(resource: T): Promise<T> {
    const { status, body } = await fhir<T>('POST', resource.resourceType, resource);
    if (status !== 201) throw new Error(`create failed ${status} ${JSON.stringify(body)}`);
    return body;
  }

  async function subscribe(criteria: string): Promise<{ id: string; token: string; url: string }> {
    const subscription = await create<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'test',
      criteria,
      channel: { type: 'websocket' },
    });
    const { status, body } = await fhir<Parameters>(
      'GET',
      `Subscription/${subscription.id}/$get-ws-binding-token`,
    );
    expect(status).toBe(200);
    const param = (name: string) => body.parameter?.find((p) => p.name === name);
    return {
      id: subscription.id as string,
      token: param('token')?.valueString as string,
      url: param('websocket-url')?.valueUrl as string,
    };
  }

  async function open(
    url = `${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`,
  ): Promise<LiveSocket> {
    const socket = await LiveSocket.open(url);
    sockets.push(socket);
    return socket;
  }

  /** A socket bound to a new subscription on `criteria`, after its handshake. */
  async function bound(criteria: string) {
    const sub = await subscribe(criteria);
    const socket = await open(sub.url);
    socket.bind(sub.token);
    await socket.next(isStatus('handshake', sub.id));
    return { ...sub, socket };
  }

  const patientRef = (id: string) => ({ reference: `Patient/${id}` });
  const communication = (patient: string, text: string): Resource =>
    ({
      resourceType: 'Communication',
      status: 'completed',
      subject: patientRef(patient),
      payload: [{ contentString: text }],
    }) as Resource;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      LIVE_HEARTBEAT_INTERVAL: '250',
      LIVE_EVENT_LOG_SIZE: String(LOG_SIZE),
    });
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });

  afterAll(async () => {
    await server.close();
  });

  test('$get-ws-binding-token answers Parameters with token, expiration and websocket-url (SPEC §7)', async () => {
    const subscription = await create<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'messages',
      criteria: 'Communication?subject=Patient/p1',
      channel: { type: 'websocket' },
    });
    const { status, body } = await fhir<Parameters>(
      'GET',
      `Subscription/${subscription.id}/$get-ws-binding-token`,
    );
    expect(status).toBe(200);
    expect(body.resourceType).toBe('Parameters');
    const names = body.parameter?.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['token', 'expiration', 'websocket-url']));
    const expiration = Date.parse(body.parameter?.find((p) => p.name === 'expiration')?.valueDateTime ?? '');
    expect(expiration).toBeGreaterThan(Date.now() + 3000 * 1000);
    expect(body.parameter?.find((p) => p.name === 'websocket-url')?.valueUrl).toBe(
      `${server.baseUrl.replace('http://', 'ws://')}ws/subscriptions-r4`,
    );
  });

  test('$get-ws-binding-token: unknown Subscription 404, non-websocket channel and bad criteria 400', async () => {
    expect((await fhir('GET', 'Subscription/does-not-exist/$get-ws-binding-token')).status).toBe(404);
    const hook = await create<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'x',
      criteria: 'Communication',
      channel: { type: 'rest-hook', endpoint: 'https://example.org/hook' },
    });
    expect((await fhir('GET', `Subscription/${hook.id}/$get-ws-binding-token`)).status).toBe(400);
    for (const criteria of [
      'NotAType?x=1',
      'Communication?nonsense-param=1',
      'Observation?date=yesterday',
      'Communication?subject.name=x',
      'Communication?_content=hello',
      'Location?near=48.8|2.3|1|km',
    ]) {
      const bad = await create<Subscription>({
        resourceType: 'Subscription',
        status: 'active',
        reason: 'x',
        criteria,
        channel: { type: 'websocket' },
      });
      const response = await fhir('GET', `Subscription/${bad.id}/$get-ws-binding-token`);
      expect([criteria, response.status]).toEqual([criteria, 400]);
    }
  });

  test('a bound socket gets a handshake, then an event-notification Bundle for a matching write only', async () => {
    const { id, socket } = await bound('Communication?subject=Patient/alice');
    await create(communication('bob', 'not for alice'));
    const mine = await create(communication('alice', 'hello alice'));
    const message = await socket.next(isStatus('event-notification', id));
    expect(focusOf(message)).toBe(`Communication/${mine.id}`);
    const entries = (message as { entry: { resource: Resource; fullUrl?: string }[] }).entry;
    expect(entries[0].resource.resourceType).toBe('SubscriptionStatus');
    expect(entries[1].resource).toMatchObject({ resourceType: 'Communication', id: mine.id });
    expect(entries[1].fullUrl).toBe(`${server.fhirUrl}Communication/${mine.id}`);
    expect(eventNumberOf(message)).toMatch(/^\d+$/);
    // An update of the matching resource is an event too.
    await fhir('PUT', `Communication/${mine.id}`, { ...mine, status: 'stopped' });
    const update = await socket.next(isStatus('event-notification', id));
    expect(focusOf(update)).toBe(`Communication/${mine.id}`);
    expect(Number(eventNumberOf(update))).toBeGreaterThan(Number(eventNumberOf(message)));
  });

  // One case per search parameter type used in criteria: [criteria, a resource that matches, one that does not].
  const cases: [string, string, Resource, Resource][] = [
    [
      'token system|code',
      'Observation?code=http://loinc.org|8867-4',
      {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
      } as Resource,
      {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ system: 'http://other.org', code: '8867-4' }] },
      } as Resource,
    ],
    [
      'token :not',
      'Communication?status:not=completed',
      { resourceType: 'Communication', status: 'in-progress' } as Resource,
      { resourceType: 'Communication', status: 'completed' } as Resource,
    ],
    [
      'string prefix (folded)',
      'Patient?name=mar',
      { resourceType: 'Patient', name: [{ given: ['María'], family: 'Lopez' }] } as Resource,
      { resourceType: 'Patient', name: [{ given: ['Anna'], family: 'Smar' }] } as Resource,
    ],
    [
      'string :exact',
      'Patient?family:exact=Lopez',
      { resourceType: 'Patient', name: [{ family: 'Lopez' }] } as Resource,
      { resourceType: 'Patient', name: [{ family: 'Lopezz' }] } as Resource,
    ],
    [
      'string :contains',
      'Patient?family:contains=ope',
      { resourceType: 'Patient', name: [{ family: 'Lopez' }] } as Resource,
      { resourceType: 'Patient', name: [{ family: 'Smith' }] } as Resource,
    ],
    [
      'reference',
      'Communication?subject=Patient/ref-1',
      communication('ref-1', 'x'),
      communication('ref-2', 'x'),
    ],
    [
      'date ge',
      'Observation?date=ge2024-06-01',
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        effectiveDateTime: '2024-06-01T10:00:00Z',
      } as Resource,
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        effectiveDateTime: '2024-05-31T23:00:00Z',
      } as Resource,
    ],
    [
      'date eq by precision',
      'Observation?date=2024-06',
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        effectiveDateTime: '2024-06-15',
      } as Resource,
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        effectiveDateTime: '2024-07-01',
      } as Resource,
    ],
    [
      'number gt',
      'RiskAssessment?probability=gt0.5',
      {
        resourceType: 'RiskAssessment',
        status: 'final',
        subject: { reference: 'Patient/n' },
        prediction: [{ probabilityDecimal: 0.8 }],
      } as Resource,
      {
        resourceType: 'RiskAssessment',
        status: 'final',
        subject: { reference: 'Patient/n' },
        prediction: [{ probabilityDecimal: 0.2 }],
      } as Resource,
    ],
    [
      'quantity with unit',
      'Observation?value-quantity=gt100|http://unitsofmeasure.org|mm[Hg]',
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        valueQuantity: { value: 120, system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      } as Resource,
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'x' },
        valueQuantity: { value: 120, system: 'http://unitsofmeasure.org', code: 'kg' },
      } as Resource,
    ],
    [
      'uri',
      'ValueSet?url=http://example.org/vs/live',
      { resourceType: 'ValueSet', status: 'active', url: 'http://example.org/vs/live' } as Resource,
      { resourceType: 'ValueSet', status: 'active', url: 'http://example.org/vs/live-other' } as Resource,
    ],
    [
      ':missing',
      'Observation?subject:missing=true&code:text=live-missing',
      { resourceType: 'Observation', status: 'final', code: { text: 'live-missing' } } as Resource,
      {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'live-missing' },
        subject: { reference: 'Patient/z' },
      } as Resource,
    ],
    [
      'two parameters (AND) with OR values',
      'Communication?status=completed,stopped&subject=Patient/and-1',
      {
        resourceType: 'Communication',
        status: 'stopped',
        subject: { reference: 'Patient/and-1' },
      } as Resource,
      {
        resourceType: 'Communication',
        status: 'in-progress',
        subject: { reference: 'Patient/and-1' },
      } as Resource,
    ],
  ];

  test.each(cases)(
    'criteria matching, %s: %s (and the search engine agrees)',
    async (_name, criteria, yes, no) => {
      const { id, socket } = await bound(criteria);
      const rejected = await create(no);
      const accepted = await create(yes);
      const message = await socket.next(isStatus('event-notification', id));
      // Events arrive in write order on one socket: the first one is the matching write.
      expect(focusOf(message)).toBe(`${yes.resourceType}/${accepted.id}`);
      // Same semantics as search: the same criteria plus _id finds the matching one and not the other.
      const [type, query] = criteria.split('?');
      const search = await fhir<{ entry?: { resource: Resource }[] }>(
        'GET',
        `${type}?${query}&_id=${accepted.id},${rejected.id}`,
      );
      expect(search.body.entry?.map((e) => e.resource.id)).toEqual([accepted.id]);
    },
  );

  test('heartbeats arrive at the configured interval on a bound socket', async () => {
    const { id, socket } = await bound('Communication?subject=Patient/heart');
    const first = await socket.next(isStatus('heartbeat', id), 2000);
    const second = await socket.next(isStatus('heartbeat', id), 2000);
    const gap = Date.parse(String(second.timestamp)) - Date.parse(String(first.timestamp));
    expect(gap).toBeGreaterThanOrEqual(150);
  });

  test('bad messages and bad tokens are answered with an error and the socket stays open', async () => {
    const socket = await open();
    socket.send('not json');
    expect(errorText(await socket.next(isError))).toMatch(/JSON/);
    socket.send({ type: 'dance' });
    expect(errorText(await socket.next(isError))).toMatch(/Unknown message type/);
    socket.send({ type: 'bind-with-token', payload: {} });
    expect(errorText(await socket.next(isError))).toMatch(/token/);
    socket.bind('garbage.token.here');
    expect(errorText(await socket.next(isError))).toMatch(/Invalid or expired/);
    // Properly signed but expired, and signed but not a binding token.
    const sub = await subscribe('Communication');
    const keys = new SigningKeys(server.db, server.config.baseUrl);
    const expired = await keys.sign({ purpose: 'ws-binding', subscription_id: sub.id, system: true }, -60);
    socket.bind(expired);
    expect(errorText(await socket.next(isError))).toMatch(/Invalid or expired/);
    socket.bind(await keys.sign({ login_id: 'x', username: 'y' }, 60));
    expect(errorText(await socket.next(isError))).toMatch(/Not a binding token/);
    socket.bind(await keys.sign({ purpose: 'ws-binding', subscription_id: 'gone', system: true }, 60));
    expect(errorText(await socket.next(isError))).toMatch(/not found/);
    socket.bind(sub.token, 'not-a-number');
    expect(errorText(await socket.next(isError))).toMatch(/lastEventNumber/);
    socket.send({ type: 'ping' });
    expect(await socket.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
    // Still usable: the valid token binds.
    socket.bind(sub.token);
    await socket.next(isStatus('handshake', sub.id));
  });

  test('unbind-from-token stops that subscription’s events', async () => {
    const a = await bound('Communication?subject=Patient/unbind');
    a.socket.send({ type: 'unbind-from-token', payload: { token: a.token } });
    const b = await subscribe('Communication?subject=Patient/unbind');
    a.socket.bind(b.token);
    await a.socket.next(isStatus('handshake', b.id));
    const written = await create(communication('unbind', 'after unbind'));
    const message = await a.socket.next(isStatus('event-notification'));
    // The first event after unbinding is B's: A's would have come first on the same socket.
    expect(isStatus('event-notification', b.id)(message)).toBe(true);
    expect(focusOf(message)).toBe(`Communication/${written.id}`);
    a.socket.send({ type: 'unbind-from-token', payload: { token: a.token } });
    expect(errorText(await a.socket.next(isError))).toMatch(/not bound/);
  });

  test('re-binding with the last event number delivers the missed events, in order (issue #8)', async () => {
    const first = await bound('Communication?subject=Patient/rebind');
    await create(communication('rebind', 'seen'));
    const seen = await first.socket.next(isStatus('event-notification', first.id));
    await first.socket.close();
    const missedA = await create(communication('rebind', 'missed a'));
    await create(communication('someone-else', 'not mine'));
    const missedB = await create(communication('rebind', 'missed b'));
    // Let this instance hear the writes before the client comes back.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await open();
    again.bind(first.token, eventNumberOf(seen));
    await again.next(isStatus('handshake', first.id));
    const one = await again.next(isStatus('event-notification', first.id));
    const two = await again.next(isStatus('event-notification', first.id));
    expect([focusOf(one), focusOf(two)]).toEqual([
      `Communication/${missedA.id}`,
      `Communication/${missedB.id}`,
    ]);
    // Live events keep flowing after the replay.
    const live = await create(communication('rebind', 'live'));
    expect(focusOf(await again.next(isStatus('event-notification', first.id)))).toBe(
      `Communication/${live.id}`,
    );
  });

  test('re-binding after more events than the log keeps gets an explicit gap signal (issue #8)', async () => {
    const first = await bound('Communication?subject=Patient/gap');
    await create(communication('gap', 'seen'));
    const seen = await first.socket.next(isStatus('event-notification', first.id));
    await first.socket.close();
    for (let i = 0; i < LOG_SIZE + 2; i++) {
      await create(communication('gap-other', `filler ${i}`));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await open();
    again.bind(first.token, eventNumberOf(seen));
    await again.next(isStatus('handshake', first.id));
    const gap = await again.next(isStatus('query-status', first.id));
    const bundle = gap as {
      entry: { resource: { status: string; error: { coding: { code: string }[] }[] } }[];
    };
    expect(bundle.entry[0].resource.status).toBe('error');
    expect(bundle.entry[0].resource.error[0].coding[0].code).toBe('events-missed');
  });

  test('issue #8: a delete of a matching resource is an event-notification whose entry is request DELETE without the resource', async () => {
    const { id, socket } = await bound('Communication?subject=Patient/deleted');
    const other = await create(communication('deleted-other', 'not mine'));
    const mine = await create(communication('deleted', 'soon gone'));
    await socket.next(isStatus('event-notification', id));
    expect((await fhir('DELETE', `Communication/${other.id}`)).status).toBe(200);
    expect((await fhir('DELETE', `Communication/${mine.id}`)).status).toBe(200);
    const gone = await socket.next(isStatus('event-notification', id));
    // The other patient's delete came first on the database and was not delivered.
    expect(focusOf(gone)).toBe(`Communication/${mine.id}`);
    const entries = (gone as { entry: Record<string, unknown>[] }).entry;
    expect(entries[1]).toEqual({
      fullUrl: `${server.fhirUrl}Communication/${mine.id}`,
      request: { method: 'DELETE', url: `Communication/${mine.id}` },
    });
  });

  test("issue #8: Medplum's subscription-supported-interaction extension narrows the events to deletes or to writes", async () => {
    const only = async (code: string) => {
      const subscription = await create<Subscription>({
        resourceType: 'Subscription',
        status: 'active',
        reason: code,
        criteria: 'Communication?subject=Patient/interaction',
        channel: { type: 'websocket' },
        extension: [
          {
            url: 'https://medplum.com/fhir/StructureDefinition/subscription-supported-interaction',
            valueCode: code,
          },
        ],
      });
      const token = (
        await fhir<Parameters>('GET', `Subscription/${subscription.id}/$get-ws-binding-token`)
      ).body.parameter?.find((p) => p.name === 'token')?.valueString as string;
      const socket = await open();
      socket.bind(token);
      await socket.next(isStatus('handshake', subscription.id));
      return { id: subscription.id as string, socket };
    };
    const deletes = await only('delete');
    const creates = await only('create');
    const written = await create(communication('interaction', 'x'));
    await fhir('DELETE', `Communication/${written.id}`);
    const [created, deleted] = [
      await creates.socket.next(isStatus('event-notification', creates.id)),
      await deletes.socket.next(isStatus('event-notification', deletes.id)),
    ];
    expect((created as { entry: { resource?: Resource }[] }).entry[1].resource?.id).toBe(written.id);
    expect((deleted as { entry: { request?: { method: string } }[] }).entry[1].request?.method).toBe(
      'DELETE',
    );
    // Each saw exactly one event: nothing else arrived after a heartbeat.
    await creates.socket.next(isStatus('heartbeat', creates.id));
    await deletes.socket.next(isStatus('heartbeat', deletes.id));
    const events = (s: LiveSocket) => s.messages.filter(isStatus('event-notification')).length;
    expect([events(creates.socket), events(deletes.socket)]).toEqual([1, 1]);
  });

  test('issue #8: the handshake carries the last event heard, so a client that saw no event can re-bind without missing one', async () => {
    const first = await bound('Communication?subject=Patient/quiet');
    const handshake = first.socket.messages.find(isStatus('handshake', first.id)) as LiveMessage;
    const position = statusOf(handshake)?.eventsSinceSubscriptionStart as string;
    expect(position).toMatch(/^\d+$/);
    await first.socket.close();
    const missed = await create(communication('quiet', 'while away'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await open();
    again.bind(first.token, position);
    await again.next(isStatus('handshake', first.id));
    expect(focusOf(await again.next(isStatus('event-notification', first.id)))).toBe(
      `Communication/${missed.id}`,
    );
  });

  test('a socket on another path is refused', async () => {
    await expect(LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/nothing-here`)).rejects.toThrow(
      /404/,
    );
  });
});
