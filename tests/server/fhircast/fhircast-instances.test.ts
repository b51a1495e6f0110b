// Two hub instances on one database (two PostgreSQL pools on one schema with
// TEST_DATABASE_URL, else one PGlite shared by two servers). Subscriptions, contexts, events and
// syncerrors cross instances through the database and LISTEN/NOTIFY, as live updates do.
import { systemContext } from '../../../src/server/repo';
import { startTwoInstances, type TwoInstances } from '../support/two-instances';
import { TestSubscriber } from './hub-socket';

describe('issue #11 FHIRcast across two server instances on one database (SPEC §7)', () => {
  const subscribers: TestSubscriber[] = [];
  let instances: TwoInstances | undefined;
  let bases: string[] = [];

  beforeAll(async () => {
    instances = await startTwoInstances({
      schemaPrefix: 'fhircast',
      getContext: () => systemContext('cast-project'),
      env: { LIVE_HEARTBEAT_INTERVAL: '300' },
    });
    bases = instances.bases;
  }, 120_000);

  afterAll(async () => {
    for (const s of subscribers) s.close();
    await instances?.stop();
  });

  async function subscribeOn(
    base: string,
    topic: string,
    events: string[],
    acknowledge = true,
  ): Promise<TestSubscriber> {
    const response = await fetch(`${base}fhircast/STU3`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        'hub.channel.type': 'websocket',
        'hub.mode': 'subscribe',
        'hub.topic': topic,
        'hub.events': events.join(','),
      }),
    });
    const endpoint = ((await response.json()) as Record<string, string>)['hub.channel.endpoint'];
    // The endpoint names the public base; connect to `base` itself, as a load balancer might.
    const path = new URL(endpoint).pathname;
    const subscriber = await TestSubscriber.connect(
      `${base.replace('http', 'ws')}${path.slice(1)}`,
      acknowledge,
    );
    subscribers.push(subscriber);
    return subscriber;
  }

  async function publishOn(base: string, topic: string, event: string, context: unknown): Promise<string> {
    const id = crypto.randomUUID();
    const response = await fetch(`${base}fhircast/STU3/${topic}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        timestamp: new Date().toISOString(),
        id,
        event: { 'hub.topic': topic, 'hub.event': event, context },
      }),
    });
    expect(response.status).toBe(202);
    return id;
  }

  const patient = { key: 'patient', resource: { resourceType: 'Patient', id: 'two-instances' } };

  test('an event published through B reaches a socket on A, and A answers the context B set', async () => {
    const [a, b] = bases;
    const topic = `t-${crypto.randomUUID()}`;
    const onA = await subscribeOn(a, topic, ['Patient-open']);
    // Subscribed through A, connected to B: the subscription lives in the database.
    const onB = await subscribeOn(b, topic, ['Patient-open']);
    const id = await publishOn(b, topic, 'Patient-open', [patient]);
    expect((await onA.nextEvent('Patient-open')).id).toBe(id);
    expect((await onB.nextEvent('Patient-open')).id).toBe(id);
    const context = (await (await fetch(`${a}fhircast/STU3/${topic}`)).json()) as Record<string, unknown>;
    expect(context).toMatchObject({ 'context.type': 'Patient', context: [patient] });
  });

  test("a delivery that fails on B sends the syncerror to the publisher's socket on A", async () => {
    const [a, b] = bases;
    const topic = `t-${crypto.randomUUID()}`;
    await subscribeOn(b, topic, ['Patient-open'], false);
    const publisher = await subscribeOn(a, topic, ['syncerror']);
    const id = await publishOn(a, topic, 'Patient-open', [patient]);
    const syncerror = await publisher.nextEvent('syncerror', 3000);
    expect(JSON.stringify(syncerror.event?.context)).toContain(`Patient-open ${id} was not delivered`);
  });
});
