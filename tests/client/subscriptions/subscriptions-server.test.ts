// The client's live subscriptions against the REAL server (SPEC §4 live subscriptions,
// §6, §7 live updates): the demo patient, signed in through the client, subscribes to her own
// Communications over a real WebSocket (`ws`: Node 20 has no global one); the demo practitioner
// writes; she receives it, and never another patient's. A socket dropped by the network comes back
// and the message written meanwhile arrives (the server's replay from her last event); a delete is
// delivered; unsubscribing closes the socket. Her Subscription is hers: another patient cannot read it.
import type { Bundle, Communication, Subscription } from '@medplum/fhirtypes';
import WebSocket from 'ws';
import type { BloomClient } from '../../../src/client';
import type { WebSocketLike } from '../../../src/client/fhircast';
import type { SubscriptionEmitter, SubscriptionEvent } from '../../../src/client/subscriptions';
import { OperationOutcomeError } from '../../../src/fhir/outcomes';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedDemoClinic } from '../../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../../src/server/seed/demo';
import { databases } from '../../server/support/test-databases';
import { startTestServer } from '../../server/support/test-server';
import type { TestServer } from '../../server/support/test-server';
import { signedInClient } from '../support/server-sign-in';

jest.setTimeout(60_000);

/** The server's recent-event log: more writes than this while a client is away make a gap. */
const LOG_SIZE = 12;

async function waitFor(condition: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function record(emitter: SubscriptionEmitter): SubscriptionEvent[] {
  const events: SubscriptionEvent[] = [];
  for (const type of ['connect', 'disconnect', 'error', 'message', 'gap', 'open', 'close'] as const) {
    emitter.addEventListener(type, (e) => events.push(e));
  }
  return events;
}

/** The resources (or DELETE urls) of the 'message' events, in order. */
function delivered(events: SubscriptionEvent[]): string[] {
  return events
    .filter((e): e is Extract<SubscriptionEvent, { type: 'message' }> => e.type === 'message')
    .map((e) => {
      const entry = (e.payload as Bundle).entry?.[1];
      return entry?.request?.method === 'DELETE'
        ? `DELETE ${entry.request.url}`
        : `${entry?.resource?.resourceType}/${entry?.resource?.id}`;
    });
}

describe.each(databases())(
  'issue #8 client live subscriptions against the real server on %s',
  (_engine, kind) => {
    let server: TestServer;
    /** Every raw socket the patient's client opened, to drop one as the network would. */
    const sockets: WebSocket[] = [];
    const clients: BloomClient[] = [];

    beforeAll(async () => {
      server = await startTestServer(
        kind,
        { LIVE_HEARTBEAT_INTERVAL: '500', LIVE_EVENT_LOG_SIZE: String(LOG_SIZE) },
        { requireAuth: true },
      );
      await seedDemoClinic(new Repository(server.db, systemContext()), {
        demoPassword: DEFAULT_DEMO_PASSWORD,
      });
    });

    afterAll(async () => {
      for (const client of clients) client.close();
      await server?.close();
    });

    async function signIn(email: string, reconnectAfterMs = 1500): Promise<BloomClient> {
      const client = await signedInClient(server.baseUrl, email, {
        subscriptions: {
          createSocket: (url) => {
            const ws = new WebSocket(url);
            sockets.push(ws);
            return ws as unknown as WebSocketLike;
          },
          // Long enough to write while she is away; random 1 makes it exact.
          backoff: { minDelay: reconnectAfterMs, random: () => 1 },
          pingIntervalMs: 0,
        },
      });
      clients.push(client);
      return client;
    }

    const message = (patientId: string, text: string): Communication => ({
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: `Patient/${patientId}` },
      payload: [{ contentString: text }],
    });

    test('she receives the practitioner’s message, and the one written while her socket was down; a delete; unsubscribe closes the socket', async () => {
      const maria = await signIn('maria@bloom.example');
      const drChen = await signIn('dr.chen@bloom.example');
      const aishaId = (await signIn('aisha@bloom.example')).getProfile()?.id as string;
      const mariaId = maria.getProfile()?.id as string;
      const criteria = `Communication?subject=Patient/${mariaId}`;

      const events = record(maria.subscribeToCriteria(criteria));
      await waitFor(() => events.some((e) => e.type === 'connect'), 'the bind');
      expect(sockets).toHaveLength(1);

      await drChen.createResource(message(aishaId, 'for Aisha'));
      const first = await drChen.createResource(message(mariaId, 'Your results are in.'));
      await waitFor(() => delivered(events).length === 1, 'the first message');
      expect(delivered(events)).toEqual([`Communication/${first.id}`]);
      const payload = (events.find((e) => e.type === 'message') as { payload: Bundle }).payload;
      expect((payload.entry?.[1]?.resource as Communication).payload?.[0]?.contentString).toBe(
        'Your results are in.',
      );

      // The network drops her socket; the practitioner writes while it is down.
      sockets[0].terminate();
      await waitFor(() => events.at(-1)?.type === 'close', 'the close');
      const whileAway = await drChen.createResource(message(mariaId, 'Written while you were away.'));
      expect(sockets).toHaveLength(1);
      await waitFor(
        () => sockets.length === 2 && delivered(events).length === 2,
        'the reconnect and the replay',
      );
      expect(delivered(events)).toEqual([`Communication/${first.id}`, `Communication/${whileAway.id}`]);
      expect(events.filter((e) => e.type === 'connect')).toHaveLength(2);
      expect(events.some((e) => e.type === 'gap' || e.type === 'error')).toBe(false);

      // Live again, and deletes are delivered.
      const live = await drChen.createResource(message(mariaId, 'Back online.'));
      await drChen.deleteResource('Communication', first.id as string);
      await waitFor(() => delivered(events).length === 4, 'the live message and the delete');
      expect(delivered(events).slice(2)).toEqual([
        `Communication/${live.id}`,
        `DELETE Communication/${first.id}`,
      ]);

      // Her Subscription is in her compartment: hers to read, not Aisha's.
      const [subscription] = await maria.searchResources<Subscription>('Subscription', { criteria });
      expect(subscription?.channel?.type).toBe('websocket');
      const aisha = clients[2];
      const refused = await aisha
        .readResource<Subscription>('Subscription', subscription.id as string)
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OperationOutcomeError);

      maria.unsubscribeFromCriteria(criteria);
      await waitFor(() => sockets[1].readyState === WebSocket.CLOSED, 'the socket to close');
      expect(maria.getSubscriptionManager().getCriteriaCount()).toBe(0);
      expect(events.some((e) => e.type === 'disconnect')).toBe(true);
    });

    test('a patient subscribing to every Communication still hears only her own (SPEC §6)', async () => {
      const aisha = await signIn('aisha@bloom.example');
      const drChen = await signIn('dr.chen@bloom.example');
      const mariaId = (await signIn('maria@bloom.example')).getProfile()?.id as string;
      const events = record(aisha.subscribeToCriteria('Communication'));
      await waitFor(() => events.some((e) => e.type === 'connect'), 'the bind');
      await drChen.createResource(message(mariaId, 'not for Aisha'));
      const hers = await drChen.createResource(message(aisha.getProfile()?.id as string, 'for Aisha'));
      await waitFor(() => delivered(events).length >= 1, 'her message');
      // Let anything wrongly routed arrive too.
      await new Promise((r) => setTimeout(r, 300));
      expect(delivered(events)).toEqual([`Communication/${hers.id}`]);
      aisha.unsubscribeFromCriteria('Communication');
    });

    test("more writes while she is away than the server's log keeps: a 'gap' event (refetch), then live events again", async () => {
      // Away long enough for the writes below, even on a loaded machine.
      const maria = await signIn('maria@bloom.example', 6000);
      const drChen = await signIn('dr.chen@bloom.example');
      const mariaId = maria.getProfile()?.id as string;
      const criteria = `Communication?subject=Patient/${mariaId}&status=in-progress`;
      const events = record(maria.subscribeToCriteria(criteria));
      await waitFor(() => events.some((e) => e.type === 'connect'), 'the bind');
      const opened = sockets.length;
      sockets[opened - 1].terminate();
      await waitFor(() => events.at(-1)?.type === 'close', 'the close');
      await Promise.all(
        Array.from({ length: LOG_SIZE + 1 }, (_, i) =>
          drChen.createResource(message(mariaId, `filler ${i}`)),
        ),
      );
      expect(sockets).toHaveLength(opened);
      await waitFor(() => events.some((e) => e.type === 'gap'), 'the gap', 15_000);
      expect(sockets).toHaveLength(opened + 1);
      const live = await drChen.createResource({ ...message(mariaId, 'live again'), status: 'in-progress' });
      await waitFor(() => delivered(events).length === 1, 'the live message');
      expect(delivered(events)).toEqual([`Communication/${live.id}`]);
      maria.unsubscribeFromCriteria(criteria);
    });
  },
);
