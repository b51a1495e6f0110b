// The FHIRcast hub over real HTTP and WebSockets (SPEC §3 Remote context events,
// §5 rules applied by the hub, §7 Remote context sync): subscribe/unsubscribe, each event type's
// context rules, versionId handling, bad requests change nothing, acknowledgement and syncerror,
// heartbeats, and topics private to a project. Real sign-ins; PGlite, PostgreSQL with TEST_DATABASE_URL.
import crypto from 'node:crypto';
import type { Project } from '@medplum/fhirtypes';
import { FHIRCAST_MESSAGES as M } from '../../../src/fhir/fhircast';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { TestSubscriber } from './hub-socket';

const patient = (id: string) => ({ key: 'patient', resource: { resourceType: 'Patient', id } });
const report = (id: string) => ({ key: 'report', resource: { resourceType: 'DiagnosticReport', id } });
const reportRef = (id: string) => ({ key: 'report', reference: { reference: `DiagnosticReport/${id}` } });

interface Outcome {
  issue?: { details?: { text?: string } }[];
}

describe.each(databases())('issue #11 FHIRcast hub (SPEC §7 Remote context sync) on %s', (_engine, kind) => {
  let server: TestServer;
  let hubUrl: string;
  let tokenA: string;
  let tokenA2: string;
  let tokenB: string;
  const subscribers: TestSubscriber[] = [];

  beforeAll(async () => {
    // 300 ms heartbeats; a receiver has one heartbeat period to acknowledge.
    server = await startTestServer(kind, { LIVE_HEARTBEAT_INTERVAL: '300' }, { requireAuth: true });
    hubUrl = `${server.baseUrl}fhircast/STU3`;
    const member = async (project: Project): Promise<string> => {
      const user = await createUser(server.db);
      await addMembership(server.db, user, project, 'Practitioner');
      return user.email as string;
    };
    const projectA = await createProject(server.db, 'Cast A');
    const projectB = await createProject(server.db, 'Cast B');
    const [emailA, emailB] = await Promise.all([member(projectA), member(projectB)]);
    // Two sign-ins of one user (two apps of hers: FHIRcast's session), and a user of another project.
    [tokenA, tokenA2, tokenB] = (
      await Promise.all([
        signIn(server.baseUrl, emailA),
        signIn(server.baseUrl, emailA),
        signIn(server.baseUrl, emailB),
      ])
    ).map((tokens) => tokens.access_token);
  });

  afterEach(() => {
    for (const s of subscribers.splice(0)) s.close();
  });

  afterAll(async () => {
    await server?.close();
  });

  async function subscribe(token: string, topic: string, events: string[]): Promise<string> {
    const response = await fetch(hubUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        'hub.channel.type': 'websocket',
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.events': events.join(','),
      }),
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as Record<string, string>;
    expect(body['hub.channel.endpoint']).toMatch(/^ws:\/\/localhost:\d+\/ws\/fhircast\/[\w-]{20,}$/);
    return body['hub.channel.endpoint'];
  }

  async function connect(
    token: string,
    topic: string,
    events: string[],
    acknowledge = true,
  ): Promise<TestSubscriber> {
    const subscriber = await TestSubscriber.connect(await subscribe(token, topic, events), acknowledge);
    subscribers.push(subscriber);
    return subscriber;
  }

  async function publish(
    token: string,
    topic: string,
    event: string,
    context: unknown,
    versionId?: string,
  ): Promise<{ status: number; body: Record<string, unknown> & Outcome }> {
    const response = await fetch(`${hubUrl}/${encodeURIComponent(topic)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        timestamp: new Date().toISOString(),
        id: crypto.randomUUID(),
        event: {
          'hub.topic': topic,
          'hub.event': event,
          context,
          ...(versionId ? { 'context.versionId': versionId } : {}),
        },
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & Outcome };
  }

  async function current(token: string, topic: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${hubUrl}/${encodeURIComponent(topic)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  const text = (body: Outcome) => body.issue?.[0]?.details?.text;
  const newTopic = () => `topic-${crypto.randomUUID()}`;

  test('every call needs a signed-in user', async () => {
    expect((await fetch(hubUrl, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${hubUrl}/t`)).status).toBe(401);
  });

  test('subscribed events arrive on the socket; other events and topics do not; acknowledged events raise nothing', async () => {
    const topic = newTopic();
    const listener = await connect(tokenA, topic, ['Patient-open', 'Patient-close', 'syncerror']);
    const other = await connect(tokenA, newTopic(), ['Patient-open']);
    const published = await publish(tokenA2, topic, 'Patient-open', [patient('p1')]);
    expect(published.status).toBe(202);
    const heard = await listener.nextEvent('Patient-open');
    expect(heard.id).toBe(published.body.id);
    expect(heard.event).toMatchObject({ 'hub.topic': topic, context: [patient('p1')] });
    expect(typeof heard.event?.['context.versionId']).toBe('string');
    await publish(tokenA2, topic, 'Encounter-open', [
      { key: 'encounter', resource: { resourceType: 'Encounter', id: 'e1' } },
      patient('p1'),
    ]);
    await publish(tokenA2, topic, 'Patient-close', [patient('p1')]);
    await listener.nextEvent('Patient-close');
    expect(listener.events().map((m) => m.event?.['hub.event'])).toEqual(['Patient-open', 'Patient-close']);
    // Acknowledged in time: no syncerror for anybody (two heartbeat periods later).
    await new Promise((r) => setTimeout(r, 700));
    expect(listener.events('syncerror')).toEqual([]);
    expect(other.events()).toEqual([]);
  });

  test('heartbeats arrive about every LIVE_HEARTBEAT_INTERVAL and need no acknowledgement', async () => {
    const listener = await connect(tokenA, newTopic(), ['Patient-open']);
    const beat = await listener.next((m) => m.event?.['hub.event'] === 'heartbeat', 2000);
    expect(beat.event?.context).toEqual([]);
    await listener.next((m) => m !== beat && m.event?.['hub.event'] === 'heartbeat', 2000);
  });

  test('an open sets the context, the matching close clears it, another close changes nothing', async () => {
    const topic = newTopic();
    expect(await current(tokenA, topic)).toEqual({ 'context.type': '', context: [] });
    await publish(tokenA, topic, 'Patient-open', [patient('p1')]);
    const opened = await current(tokenA, topic);
    expect(opened).toMatchObject({ 'context.type': 'Patient', context: [patient('p1')] });
    expect((await publish(tokenA, topic, 'Patient-close', [patient('p2')])).status).toBe(202);
    expect(await current(tokenA, topic)).toEqual(opened);
    await publish(tokenA, topic, 'Patient-close', [patient('p1')]);
    expect(await current(tokenA, topic)).toEqual({ 'context.type': '', context: [] });
  });

  test.each([
    ['ImagingStudy', 'study', [{ key: 'study', resource: { resourceType: 'ImagingStudy', id: 's1' } }]],
    [
      'Encounter',
      'encounter',
      [{ key: 'encounter', resource: { resourceType: 'Encounter', id: 'e1' } }, patient('p1')],
    ],
    ['DiagnosticReport', 'report', [report('r1'), patient('p1')]],
  ])('%s-open sets the context and its matching close (key %s) clears it', async (type, _key, context) => {
    const topic = newTopic();
    await publish(tokenA, topic, `${type}-open`, context);
    expect(await current(tokenA, topic)).toMatchObject({ 'context.type': type, context });
    await publish(tokenA, topic, `${type}-close`, context);
    expect((await current(tokenA, topic))['context.type']).toBe('');
  });

  test('DiagnosticReport-update needs the current versionId, applies the Bundle and advances the version', async () => {
    const topic = newTopic();
    const listener = await connect(tokenA, topic, ['DiagnosticReport-update']);
    await publish(tokenA, topic, 'DiagnosticReport-open', [report('r1'), patient('p1')]);
    const v1 = (await current(tokenA, topic))['context.versionId'] as string;
    const observation = { resourceType: 'Observation', id: 'o1', status: 'preliminary', code: { text: 'x' } };
    const updates = {
      key: 'updates',
      resource: {
        resourceType: 'Bundle',
        id: 'b1',
        type: 'transaction',
        entry: [{ resource: observation, request: { method: 'PUT', url: 'Observation/o1' } }],
      },
    };
    // A stale or unknown version is a conflict and changes nothing.
    const stale = await publish(
      tokenA,
      topic,
      'DiagnosticReport-update',
      [reportRef('r1'), updates],
      'not-the-version',
    );
    expect(stale.status).toBe(409);
    expect((await current(tokenA, topic))['context.versionId']).toBe(v1);

    const updated = await publish(tokenA, topic, 'DiagnosticReport-update', [reportRef('r1'), updates], v1);
    expect(updated.status).toBe(202);
    const heard = await listener.nextEvent('DiagnosticReport-update');
    const v2 = heard.event?.['context.versionId'];
    expect(v2).toEqual(expect.any(String));
    expect(v2).not.toBe(v1);
    expect(heard.event?.['context.priorVersionId']).toBe(v1);
    const after = await current(tokenA, topic);
    expect(after['context.versionId']).toBe(v2);
    expect(after.context).toEqual(
      expect.arrayContaining([
        { key: 'content', resource: expect.objectContaining({ entry: [{ resource: observation }] }) },
      ]),
    );
    // The old version is now stale; a DELETE with the new one removes the entry.
    expect(
      (await publish(tokenA, topic, 'DiagnosticReport-update', [reportRef('r1'), updates], v1)).status,
    ).toBe(409);
    const remove = {
      key: 'updates',
      resource: {
        resourceType: 'Bundle',
        id: 'b2',
        type: 'transaction',
        entry: [{ request: { method: 'DELETE', url: 'Observation/o1' } }],
      },
    };
    expect(
      (await publish(tokenA, topic, 'DiagnosticReport-update', [reportRef('r1'), remove], v2)).status,
    ).toBe(202);
    const content = (
      (await current(tokenA, topic)).context as { key: string; resource: { entry: unknown[] } }[]
    ).find((e) => e.key === 'content');
    expect(content?.resource.entry).toEqual([]);
  });

  test('DiagnosticReport-select selects within the open report, keeps the version; refused on another report', async () => {
    const topic = newTopic();
    expect(
      text(
        (
          await publish(tokenA, topic, 'DiagnosticReport-select', [
            reportRef('r1'),
            { key: 'select', reference: { reference: 'Observation/o1' } },
          ])
        ).body,
      ),
    ).toBe('DiagnosticReport-select needs an open DiagnosticReport context on this topic');
    await publish(tokenA, topic, 'DiagnosticReport-open', [report('r1'), patient('p1')]);
    const before = await current(tokenA, topic);
    const select = [
      reportRef('r1'),
      { key: 'select', reference: { reference: 'Observation/o1' } },
      { key: 'select', reference: { reference: 'Observation/o2' } },
    ];
    expect((await publish(tokenA, topic, 'DiagnosticReport-select', select)).status).toBe(202);
    const after = await current(tokenA, topic);
    expect(after['context.versionId']).toBe(before['context.versionId']);
    expect(after.context).toEqual(expect.arrayContaining([select[1], select[2]]));
    const wrong = await publish(tokenA, topic, 'DiagnosticReport-select', [reportRef('r9'), select[1]]);
    expect(wrong.status).toBe(400);
    expect(text(wrong.body)).toBe(
      'DiagnosticReport-select names DiagnosticReport/r9, the open report is DiagnosticReport/r1',
    );
  });

  test("bad requests are refused with the client rules' messages and change nothing (SPEC §5)", async () => {
    const topic = newTopic();
    await publish(tokenA, topic, 'Patient-open', [patient('p1')]);
    const before = await current(tokenA, topic);
    const cases: [string, unknown, string | undefined, string][] = [
      ['Patient-opened', [patient('p2')], undefined, M.unknownEvent('Patient-opened')],
      ['Patient-open', 'p2', undefined, M.context],
      ['Patient-open', [report('r1')], undefined, M.badKey(0, 'report', 'Patient-open')],
      ['Patient-open', [{ key: 'patient', resource: { resourceType: 'Patient' } }], undefined, M.id(0)],
      [
        'Patient-open',
        [{ key: 'patient', resource: { resourceType: 'Encounter', id: 'e' } }],
        undefined,
        M.wrongType(0, 'patient', 'Patient', 'Encounter'),
      ],
      [
        'Patient-open',
        [patient('p2'), patient('p3')],
        undefined,
        M.repeatedKey('patient', 'Patient-open', 2),
      ],
      ['DiagnosticReport-open', [report('r1')], undefined, M.missingKey('patient', 'DiagnosticReport-open')],
      ['DiagnosticReport-update', [reportRef('r1')], undefined, M.versionId('DiagnosticReport-update')],
    ];
    for (const [event, context, versionId, message] of cases) {
      const refused = await publish(tokenA, topic, event, context, versionId);
      expect([event, refused.status, text(refused.body)]).toEqual([event, 400, message]);
    }
    // The URL's topic and the event's must agree.
    const mismatch = await fetch(`${hubUrl}/${topic}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        timestamp: new Date().toISOString(),
        id: 'x',
        event: { 'hub.topic': 'other', 'hub.event': 'Patient-open', context: [patient('p9')] },
      }),
    });
    expect(mismatch.status).toBe(400);
    expect(await current(tokenA, topic)).toEqual(before);

    const form = async (fields: Record<string, string>) => {
      const response = await fetch(hubUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenA}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
      return [response.status, text((await response.json()) as Outcome)];
    };
    const good = {
      'hub.channel.type': 'websocket',
      'hub.mode': 'subscribe',
      'hub.topic': 't',
      'hub.events': 'Patient-open',
    };
    expect(await form({ ...good, 'hub.topic': '' })).toEqual([400, M.topic]);
    expect(await form({ ...good, 'hub.events': '' })).toEqual([400, M.events]);
    expect(await form({ ...good, 'hub.events': 'Patient-open,Nope' })).toEqual([400, M.unknownEvent('Nope')]);
    expect(await form({ ...good, 'hub.channel.type': 'webhook' })).toEqual([400, M.channelType]);
    expect(await form({ ...good, 'hub.mode': 'watch' })).toEqual([400, M.mode]);
    expect(await form({ ...good, 'hub.mode': 'unsubscribe' })).toEqual([400, M.unsubscribeEndpoint]);
    expect(await form({ ...good, 'hub.mode': 'unsubscribe', 'hub.channel.endpoint': 'http://x/y' })).toEqual([
      400,
      M.endpoint,
    ]);
  });

  test("each event type's context rules (SPEC §3): its smallest context is accepted, a missing key refused with the client's message", async () => {
    const topic = newTopic();
    const encounter = { key: 'encounter', resource: { resourceType: 'Encounter', id: 'e1' } };
    const study = { key: 'study', resource: { resourceType: 'ImagingStudy', id: 's1' } };
    const select = { key: 'select', reference: { reference: 'Observation/o1' } };
    const updates = { key: 'updates', resource: { resourceType: 'Bundle', id: 'b1', type: 'transaction' } };
    const outcome = {
      key: 'operationoutcome',
      resource: { resourceType: 'OperationOutcome', id: 'x', issue: [] },
    };
    // In an order the current context allows (select and update need the open report), with the
    // context.type each leaves.
    const walk: [string, { key: string }[], string][] = [
      ['Patient-open', [patient('p1')], 'Patient'],
      ['Patient-close', [patient('p1')], ''],
      ['ImagingStudy-open', [study], 'ImagingStudy'],
      ['ImagingStudy-close', [study], ''],
      ['Encounter-open', [encounter, patient('p1')], 'Encounter'],
      ['Encounter-close', [encounter, patient('p1')], ''],
      ['DiagnosticReport-open', [report('r1'), patient('p1')], 'DiagnosticReport'],
      ['DiagnosticReport-select', [reportRef('r1'), select], 'DiagnosticReport'],
      ['DiagnosticReport-update', [reportRef('r1'), updates], 'DiagnosticReport'],
      ['DiagnosticReport-close', [report('r1'), patient('p1')], ''],
      ['syncerror', [outcome], ''],
    ];
    for (const [event, context, type] of walk) {
      const before = await current(tokenA, topic);
      const versionId = before['context.versionId'] as string | undefined;
      for (const { key } of context) {
        const without = context.filter((entry) => entry.key !== key);
        const refused = await publish(tokenA, topic, event, without, versionId);
        expect([event, key, refused.status, text(refused.body)]).toEqual([
          event,
          key,
          400,
          M.missingKey(key, event),
        ]);
      }
      expect(await current(tokenA, topic)).toEqual(before);
      const accepted = await publish(tokenA, topic, event, context, versionId);
      expect([event, accepted.status]).toEqual([event, 202]);
      expect([event, (await current(tokenA, topic))['context.type']]).toEqual([event, type]);
    }
  });

  test('a malformed request is refused with a clear message and changes nothing', async () => {
    const topic = newTopic();
    await publish(tokenA, topic, 'Patient-open', [patient('p1')]);
    const before = await current(tokenA, topic);
    const post = async (url: string, contentType: string, body: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenA}`, 'content-type': contentType },
        body,
      });
      return [response.status, text((await response.json()) as Outcome)];
    };
    const message = (fields: Record<string, unknown>) =>
      JSON.stringify({
        timestamp: new Date().toISOString(),
        id: 'm1',
        event: { 'hub.topic': topic, 'hub.event': 'Patient-open', context: [patient('p2')] },
        ...fields,
      });
    const topicUrl = `${hubUrl}/${topic}`;
    expect(await post(hubUrl, 'application/json', '{"hub.mode":"subscribe"}')).toEqual([
      400,
      'Send the subscription request as application/x-www-form-urlencoded',
    ]);
    expect(await post(topicUrl, 'application/json', '[]')).toEqual([
      400,
      'The body must be a FHIRcast message {timestamp, id, event}',
    ]);
    expect(await post(topicUrl, 'application/json', message({ event: 'Patient-open' }))).toEqual([
      400,
      'The body must be a FHIRcast message {timestamp, id, event}',
    ]);
    expect(await post(topicUrl, 'application/json', message({ id: 7 }))).toEqual([
      400,
      'The message needs a string id',
    ]);
    expect(await post(topicUrl, 'application/json', message({ timestamp: 'yesterday' }))).toEqual([
      400,
      'The message needs an ISO timestamp',
    ]);
    expect(
      await post(
        topicUrl,
        'application/json',
        message({ event: { 'hub.topic': 'other', 'hub.event': 'Patient-open', context: [patient('p2')] } }),
      ),
    ).toEqual([400, `event.hub.topic must be the topic of the URL (${topic})`]);
    expect(await current(tokenA, topic)).toEqual(before);
  });

  test("an event not acknowledged in time sends a syncerror to the publisher's own subscription", async () => {
    const topic = newTopic();
    const silent = await connect(tokenA, topic, ['Patient-open'], false);
    const publisherSocket = await connect(tokenA2, topic, ['Patient-open', 'syncerror']);
    const bystander = await connect(tokenA, topic, ['syncerror']);
    const published = await publish(tokenA2, topic, 'Patient-open', [patient('p1')]);
    await silent.nextEvent('Patient-open');
    const syncerror = await publisherSocket.nextEvent('syncerror', 3000);
    expect(syncerror.event?.context).toEqual([
      {
        key: 'operationoutcome',
        resource: expect.objectContaining({
          resourceType: 'OperationOutcome',
          issue: [
            expect.objectContaining({
              diagnostics: `Patient-open ${published.body.id as string} was not delivered: no acknowledgement`,
            }),
          ],
        }),
      },
    ]);
    expect(bystander.events('syncerror')).toEqual([]);
  });

  test('an acknowledgement with a non-2xx status is a failed delivery too', async () => {
    const topic = newTopic();
    const refusing = await connect(tokenA, topic, ['Patient-open'], false);
    refusing.ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: string; event?: { 'hub.event': string } };
      if (message.event?.['hub.event'] === 'Patient-open') {
        refusing.ws.send(
          JSON.stringify({ id: message.id, timestamp: new Date().toISOString(), status: '500' }),
        );
      }
    });
    const publisherSocket = await connect(tokenA2, topic, ['syncerror']);
    const published = await publish(tokenA2, topic, 'Patient-open', [patient('p1')]);
    const syncerror = await publisherSocket.nextEvent('syncerror', 3000);
    expect(JSON.stringify(syncerror.event?.context)).toContain(
      `Patient-open ${published.body.id as string} was not delivered: the subscriber answered status 500`,
    );
  });

  test('unsubscribe ends the socket; an unknown endpoint is refused', async () => {
    const topic = newTopic();
    const endpoint = await subscribe(tokenA, topic, ['Patient-open']);
    const listener = await TestSubscriber.connect(endpoint);
    const closed = new Promise((resolve) => listener.ws.once('close', resolve));
    const unsubscribe = (token: string) =>
      fetch(hubUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          'hub.channel.type': 'websocket',
          'hub.mode': 'unsubscribe',
          'hub.topic': topic,
          'hub.events': 'Patient-open',
          'hub.channel.endpoint': endpoint,
        }),
      });
    // Another project cannot end it.
    expect((await unsubscribe(tokenB)).status).toBe(404);
    expect((await unsubscribe(tokenA)).status).toBe(202);
    await closed;
    // The ended endpoint is denied and closed (4404).
    const denied = await TestSubscriber.connect(endpoint);
    expect(denied.received[0]).toMatchObject({ 'hub.mode': 'denied' });
    await new Promise((resolve) => (denied.closeCode ? resolve(null) : denied.ws.once('close', resolve)));
    expect(denied.closeCode).toBe(4404);
  });

  test('topics are private to the project: another project sees neither the context nor the events', async () => {
    const topic = newTopic();
    const outsider = await connect(tokenB, topic, ['Patient-open']);
    const insider = await connect(tokenA2, topic, ['Patient-open']);
    await publish(tokenA, topic, 'Patient-open', [patient('secret')]);
    await insider.nextEvent('Patient-open');
    expect((await current(tokenB, topic))['context.type']).toBe('');
    expect((await current(tokenA2, topic))['context.type']).toBe('Patient');
    await publish(tokenB, topic, 'Patient-open', [patient('theirs')]);
    await outsider.nextEvent('Patient-open');
    expect(outsider.events().map((m) => m.event?.context)).toEqual([[patient('theirs')]]);
    expect(insider.events()).toHaveLength(1);
  });
});
