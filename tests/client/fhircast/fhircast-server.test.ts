// The platform client's FHIRcast calls against the REAL hub in-process (SPEC §5, §7,
// §8): two BloomClients signed in as the demo practitioner subscribe, connect over WebSockets
// (the `ws` package: Node 20 has no global WebSocket), publish and read the context; acknowledgements
// come from FhircastConnection, so no syncerror follows; the hub refuses what the client would.
import WebSocket from 'ws';
import type { BloomClient } from '../../../src/client';
import type { WebSocketFactory, WebSocketLike } from '../../../src/client/fhircast';
import type { FhircastMessage } from '../../../src/fhir/fhircast';
import { OperationOutcomeError } from '../../../src/fhir/outcomes';
import { Repository, systemContext } from '../../../src/server/repo';
import { seedDemoClinic } from '../../../src/server/seed';
import { DEFAULT_DEMO_PASSWORD } from '../../../src/server/seed/demo';
import { databases } from '../../server/support/test-databases';
import { startTestServer } from '../../server/support/test-server';
import type { TestServer } from '../../server/support/test-server';
import { signedInClient } from '../support/server-sign-in';

const createSocket: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;

describe.each(databases())('issue #11 BloomClient FHIRcast against the real hub on %s', (_engine, kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { LIVE_HEARTBEAT_INTERVAL: '300' }, { requireAuth: true });
    await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEFAULT_DEMO_PASSWORD });
  });

  afterAll(async () => {
    await server?.close();
  });

  const drChen = (): Promise<BloomClient> => signedInClient(server.baseUrl, 'dr.chen@bloom.example');

  test('subscribe, connect, publish from another client, receive, read the context, unsubscribe', async () => {
    const [viewer, publisher] = [await drChen(), await drChen()];
    const topic = `exam-room-${Date.now()}`;
    const request = await viewer.fhircastSubscribe(topic, ['Patient-open', 'Patient-close', 'syncerror']);
    expect(request.endpoint).toMatch(/^ws:\/\//);
    const received: FhircastMessage[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    let closed!: () => void;
    const ended = new Promise<void>((resolve) => (closed = resolve));
    const connection = viewer.fhircastConnect(
      request,
      { onMessage: (m) => received.push(m), onOpen: () => opened(), onClose: () => closed() },
      createSocket,
    );
    await open;
    const patient = { resourceType: 'Patient' as const, id: 'cast-patient' };
    const sent = await publisher.fhircastPublish(topic, 'Patient-open', {
      key: 'patient',
      resource: patient,
    });
    await waitFor(() => received.length === 1);
    expect(received[0]).toMatchObject({
      id: sent.id,
      event: { 'hub.event': 'Patient-open', context: [{ key: 'patient', resource: patient }] },
    });
    const context = await publisher.fhircastGetContext(topic);
    expect(context).toMatchObject({
      'context.type': 'Patient',
      context: [{ key: 'patient', resource: patient }],
    });
    // The client acknowledged: two heartbeat periods later there is still no syncerror.
    await new Promise((r) => setTimeout(r, 700));
    expect(received.map((m) => m.event['hub.event'])).toEqual(['Patient-open']);

    await viewer.fhircastUnsubscribe(request);
    await ended;
    connection.disconnect();
  });

  test('DiagnosticReport-update through the client: the version from the context, a stale one refused', async () => {
    const client = await drChen();
    const topic = `report-${Date.now()}`;
    await client.fhircastPublish(topic, 'DiagnosticReport-open', [
      { key: 'report', resource: { resourceType: 'DiagnosticReport', id: 'r1' } },
      { key: 'patient', resource: { resourceType: 'Patient', id: 'p1' } },
    ]);
    const { 'context.versionId': v1 } = await client.fhircastGetContext(topic);
    const context = [
      { key: 'report', reference: { reference: 'DiagnosticReport/r1' } },
      { key: 'updates', resource: { resourceType: 'Bundle', id: 'u1', type: 'transaction', entry: [] } },
    ];
    const accepted = await client.fhircastPublish(topic, 'DiagnosticReport-update', context, v1);
    expect(accepted.event['context.priorVersionId']).toBe(v1);
    const stale = await client
      .fhircastPublish(topic, 'DiagnosticReport-update', context, v1)
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(OperationOutcomeError);
    expect((stale as Error).message).toBe(
      `context.versionId ${v1} is not the current version ${accepted.event['context.versionId']}`,
    );
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
