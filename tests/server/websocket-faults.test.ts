// No frame a client sends can stop the server. For every WebSocket path (live updates,
// graphql-ws, FHIRcast, agents), with and without a valid sign-in on the offending socket, each bad
// input of RFC 6455's kinds is sent by hand. After each: the offending socket was closed with the
// code for it, /healthcheck answers, and a well-behaved socket on every path still gets its events.
// An unhandled 'error' anywhere here is an uncaught exception, which fails the test that caused it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Communication, Parameters, Subscription } from '@medplum/fhirtypes';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { BloomAgent } from '../../src/agent/agent';
import { ackCodeOf } from '../../src/agent/hl7-ack';
import { TOO_MANY_FRAMES_REASON } from '../../src/server/guarded-websocket';
import { AGENT_WS_PATH, HL7_V2_CONTENT_TYPE } from '../../src/fhir/agent-protocol';
import { postForm } from './auth/support/auth-fixtures';
import { TestSubscriber } from './fhircast/hub-socket';
import { focusOf, isStatus, LiveSocket } from './live/support/live-socket';
import { call, startClinic } from './operations/support/clinic';
import type { Clinic } from './operations/support/clinic';
import {
  agentConfig,
  createAgentSetup,
  hl7Message,
  startAgent,
  startLoopbackDestinations,
} from './support/agent-fixtures';
import type { AgentSetup, LoopbackDestinations } from './support/agent-fixtures';
import { encodeFrame, OPCODE, RawWebSocket } from './support/raw-websocket';
import type { Closed, FrameOptions } from './support/raw-websocket';
import { databases } from './support/test-databases';

/** Short, so a socket that stops answering is closed within a few seconds. */
const PING_INTERVAL = 700;
const SMALL_LIMIT = 64 * 1024;
const AGENT_LIMIT = 16 * 1024 * 1024;

/** One WebSocket path, and how a client signs in on it by hand. */
interface PathUnderTest {
  path: string;
  maxPayload: number;
  /** Where the offending socket connects. */
  url(signedIn: boolean): Promise<string>;
  /** The path's own sign-in over the raw socket. */
  signIn(ws: RawWebSocket): Promise<void>;
  /** A message of exactly `size` bytes that the path answers. */
  atLimit(size: number, signedIn: boolean): string;
  /** How the path answers it: a text it sends, the close code of its own protocol, or only reading it. */
  atLimitAnswer(signedIn: boolean): { text: (text: string) => boolean } | { closeCode: number } | 'read';
  /** The close code when the path's own sign-in deadline or refusal comes first (not signed in). */
  ownDeadlineCode?: number;
}

/** `{"type":…,…,"pad":"   "}` grown to exactly `size` bytes. */
function padded(message: Record<string, unknown>, size: number): string {
  const bare = JSON.stringify({ ...message, pad: '' });
  return JSON.stringify({ ...message, pad: ' '.repeat(size - Buffer.byteLength(bare)) });
}

function isType(type: string) {
  return (text: string): boolean => (JSON.parse(text) as { type?: string }).type === type;
}

describe.each(databases())(
  'issue #19 WebSocket faults close one socket, never the server, on %s',
  (_engine, kind) => {
    let clinic: Clinic;
    let wsBase: string;
    let binaryDir: string;
    let destinations: LoopbackDestinations;
    let setup: AgentSetup;
    let attackerAgent: AgentSetup;
    let agent: BloomAgent;
    let agentToken: string;
    let mariaId: string;
    let live: LiveSocket;
    let liveSubscriptionToken: string;
    let graphql: Client;
    const graphqlHeard: string[] = [];
    let cast: TestSubscriber;
    let castTopic: string;
    const raw: RawWebSocket[] = [];

    const fhir = <T>(method: string, route: string, body?: unknown) =>
      call<T>(clinic.server, method, `fhir/R4/${route}`, clinic.admin, { body });

    async function liveBinding(): Promise<{ id: string; token: string }> {
      const subscription = await fhir<Subscription>('POST', 'Subscription', {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'issue #19',
        criteria: `Communication?subject=Patient/${mariaId}`,
        channel: { type: 'websocket' },
      });
      expect(subscription.status).toBe(201);
      const id = subscription.body.id as string;
      const binding = await fhir<Parameters>('GET', `Subscription/${id}/$get-ws-binding-token`);
      return { id, token: binding.body.parameter?.find((p) => p.name === 'token')?.valueString as string };
    }

    async function castEndpoint(topic: string): Promise<string> {
      const response = await postForm<Record<string, string>>(
        `${clinic.server.baseUrl}fhircast/STU3`,
        {
          'hub.channel.type': 'websocket',
          'hub.mode': 'subscribe',
          'hub.topic': topic,
          'hub.events': 'Patient-open',
        },
        { authorization: `Bearer ${clinic.admin.access_token}` },
      );
      expect(response.status).toBe(202);
      return response.body['hub.channel.endpoint'];
    }

    const paths: PathUnderTest[] = [
      {
        path: '/ws/subscriptions-r4',
        maxPayload: SMALL_LIMIT,
        url: async () => `${wsBase}/ws/subscriptions-r4`,
        async signIn(ws) {
          ws.sendText(JSON.stringify({ type: 'bind-with-token', payload: { token: liveSubscriptionToken } }));
          await ws.nextText((text) => text.includes('"handshake"'));
        },
        atLimit: (size) => padded({ type: 'ping' }, size),
        atLimitAnswer: () => ({ text: isType('pong') }),
      },
      {
        path: '/ws/graphql',
        maxPayload: SMALL_LIMIT,
        url: async () => `${wsBase}/ws/graphql`,
        async signIn(ws) {
          ws.sendText(
            JSON.stringify({ type: 'connection_init', payload: { token: clinic.admin.access_token } }),
          );
          await ws.nextText(isType('connection_ack'));
        },
        atLimit: (size) => padded({ type: 'ping', payload: {} }, size),
        atLimitAnswer: () => ({ text: isType('pong') }),
        // graphql-ws closes a socket without connection_init after 3 s (4408).
        ownDeadlineCode: 4408,
      },
      {
        path: '/ws/fhircast/',
        maxPayload: SMALL_LIMIT,
        // The endpoint id is the socket's credential: an unknown one is refused (4404).
        url: async (signedIn) =>
          signedIn
            ? castEndpoint(`attacker-${crypto.randomUUID()}`)
            : `${wsBase}/ws/fhircast/${crypto.randomUUID()}`,
        async signIn(ws) {
          await ws.nextText((text) => text.includes('"hub.mode":"subscribe"'));
        },
        // An acknowledgement of no message: read and ignored, the socket stays open.
        atLimit: (size) => padded({ id: 'none', timestamp: new Date().toISOString(), status: '200' }, size),
        atLimitAnswer: (signedIn) => (signedIn ? 'read' : { closeCode: 4404 }),
        ownDeadlineCode: 4404,
      },
      {
        path: AGENT_WS_PATH,
        maxPayload: AGENT_LIMIT,
        url: async () => `${wsBase}${AGENT_WS_PATH}`,
        async signIn(ws) {
          ws.sendText(
            JSON.stringify({
              type: 'agent:connect:request',
              accessToken: agentToken,
              agentId: attackerAgent.agent.id,
            }),
          );
          await ws.nextText(isType('agent:connect:response'));
        },
        atLimit: (size, signedIn) =>
          signedIn
            ? padded({ type: 'agent:heartbeat:request' }, size)
            : padded({ type: 'agent:connect:request', accessToken: 'not-a-token', agentId: 'x' }, size),
        atLimitAnswer: (signedIn) =>
          signedIn ? { text: isType('agent:heartbeat:response') } : { closeCode: 4401 },
      },
    ];

    beforeAll(async () => {
      binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-ws-faults-'));
      clinic = await startClinic(kind, {
        BINARY_DIR: binaryDir,
        WEBSOCKET_PING_INTERVAL: String(PING_INTERVAL),
      });
      wsBase = clinic.server.baseUrl.replace(/^http/, 'ws').replace(/\/$/, '');
      mariaId = (clinic.maria.profile?.reference as string).split('/')[1];

      // The well-behaved sockets, one per path.
      const binding = await liveBinding();
      liveSubscriptionToken = binding.token;
      live = await LiveSocket.open(`${wsBase}/ws/subscriptions-r4`);
      live.bind(binding.token);
      await live.next(isStatus('handshake', binding.id));

      graphql = createClient({
        url: `${wsBase}/ws/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { token: clinic.admin.access_token },
        retryAttempts: 0,
      });
      await new Promise<void>((resolve, reject) => {
        graphql.subscribe<{ CommunicationChanged: { id: string } }>(
          { query: `subscription { CommunicationChanged(subject: "Patient/${mariaId}") { id } }` },
          {
            next: (result) => {
              const id = result.data?.CommunicationChanged.id;
              if (id) graphqlHeard.push(id);
            },
            error: reject,
            complete: () => undefined,
          },
        );
        graphql.on('connected', () => resolve());
      });

      castTopic = `bystander-${crypto.randomUUID()}`;
      cast = await TestSubscriber.connect(await castEndpoint(castTopic));

      destinations = await startLoopbackDestinations();
      setup = await createAgentSetup(clinic.server.db, clinic.projectId, 'Bystander agent');
      attackerAgent = await createAgentSetup(clinic.server.db, clinic.projectId, 'Attacker agent');
      agent = await startAgent(agentConfig(clinic.server.baseUrl, setup, { lab: destinations.echoUrl }));
      const granted = await postForm<{ access_token: string }>(`${clinic.server.baseUrl}oauth2/token`, {
        grant_type: 'client_credentials',
        client_id: attackerAgent.client.id,
        client_secret: attackerAgent.client.secret,
      });
      agentToken = granted.body.access_token;
    }, 240_000);

    afterEach(() => {
      for (const ws of raw.splice(0)) ws.destroy();
    });

    afterAll(async () => {
      await live?.close();
      await graphql?.dispose();
      cast?.close();
      await agent?.stop();
      await destinations?.close();
      await clinic?.server.close();
      fs.rmSync(binaryDir, { recursive: true, force: true });
    });

    /** The server answers, and the well-behaved socket on every path still gets its events. */
    async function expectServerUnharmed(): Promise<void> {
      const health = await fetch(`${clinic.server.baseUrl}healthcheck`);
      expect(health.status).toBe(200);

      const message = await fhir<Communication>('POST', 'Communication', {
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: `Patient/${mariaId}` },
        payload: [{ contentString: 'still here' }],
      });
      expect(message.status).toBe(201);
      const id = message.body.id as string;
      await live.next((m) => focusOf(m) === `Communication/${id}`);
      await waitFor(() => graphqlHeard.includes(id));

      const eventId = crypto.randomUUID();
      const published = await call(clinic.server, 'POST', `fhircast/STU3/${castTopic}`, clinic.admin, {
        contentType: 'application/json',
        body: {
          timestamp: new Date().toISOString(),
          id: eventId,
          event: {
            'hub.topic': castTopic,
            'hub.event': 'Patient-open',
            context: [{ key: 'patient', resource: { resourceType: 'Patient', id: mariaId } }],
          },
        },
      });
      expect(published.status).toBe(202);
      await cast.next((m) => m.id === eventId);

      const pushed = await call(
        clinic.server,
        'POST',
        `fhir/R4/Agent/${setup.agent.id}/$push`,
        clinic.admin,
        {
          body: {
            destination: 'lab',
            body: hl7Message(id.slice(0, 8)),
            contentType: HL7_V2_CONTENT_TYPE,
            waitForResponse: true,
          },
        },
      );
      expect(pushed.status).toBe(200);
      expect(ackCodeOf(pushed.text)).toBe('AA');
    }

    /** A socket on the path that sends `frame`: before anything else, or once signed in. */
    async function attack(
      target: PathUnderTest,
      signedIn: boolean,
      frame: FrameOptions | Buffer,
    ): Promise<RawWebSocket> {
      const bytes = Buffer.isBuffer(frame) ? frame : encodeFrame(frame);
      const ws = await RawWebSocket.open(await target.url(signedIn), signedIn ? undefined : bytes);
      raw.push(ws);
      if (signedIn) {
        await target.signIn(ws);
        ws.send(bytes);
      }
      return ws;
    }

    const openSockets = (route: string) => clinic.server.app.websockets.openSockets(route);

    const signIns = [
      ['without a sign-in', false],
      ['signed in', true],
    ] as const;

    test('a burst of 50 binds on one socket is answered in full and the socket stays open', async () => {
      const ws = await RawWebSocket.open(`${wsBase}/ws/subscriptions-r4`);
      raw.push(ws);
      // Every text is tested once (those seen already, then each new one): a count of handshakes.
      let handshakes = 0;
      const all = ws.nextText((text) => text.includes('"handshake"') && ++handshakes === 50);
      const bind = JSON.stringify({ type: 'bind-with-token', payload: { token: liveSubscriptionToken } });
      ws.send(
        Buffer.concat(
          Array.from({ length: 50 }, () => encodeFrame({ opcode: OPCODE.text, payload: Buffer.from(bind) })),
        ),
      );
      await all;
      await ws.roundTrip();
      expect(handshakes).toBe(50);
      expect(ws.isClosed).toBe(false);
    });

    describe.each(paths.map((p) => [p.path, p] as const))('%s', (_path, target) => {
      describe.each(signIns)('%s', (_label, signedIn) => {
        const expectClosed = async (ws: RawWebSocket, code: number): Promise<Closed> => {
          const closed = await ws.closed();
          expect(closed.code).toBe(code);
          return closed;
        };

        test('a frame over the limit closes the socket with 1009', async () => {
          const ws = await attack(target, signedIn, {
            opcode: OPCODE.text,
            payload: Buffer.alloc(target.maxPayload + 1, 0x20),
          });
          await expectClosed(ws, 1009);
          await expectServerUnharmed();
        });

        test('a frame exactly at the limit is read and answered by the path', async () => {
          const message = target.atLimit(target.maxPayload, signedIn);
          expect(Buffer.byteLength(message)).toBe(target.maxPayload);
          const ws = await attack(target, signedIn, { opcode: OPCODE.text, payload: Buffer.from(message) });
          const answer = target.atLimitAnswer(signedIn);
          if (answer === 'read') {
            // Frames are read in order: a pong after it means the message was read, and kept open.
            await ws.roundTrip();
            expect(ws.isClosed).toBe(false);
          } else if ('closeCode' in answer) {
            await expectClosed(ws, answer.closeCode);
          } else {
            await ws.nextText(answer.text);
            expect(ws.isClosed).toBe(false);
          }
          await expectServerUnharmed();
        });

        test('a binary frame where text is expected closes the socket with 1003', async () => {
          const ws = await attack(target, signedIn, {
            opcode: OPCODE.binary,
            payload: Buffer.from('{"type":"ping"}'),
          });
          await expectClosed(ws, 1003);
          await expectServerUnharmed();
        });

        test('invalid UTF-8 in a text frame closes the socket with 1007', async () => {
          const ws = await attack(target, signedIn, {
            opcode: OPCODE.text,
            payload: Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0x7d]),
          });
          await expectClosed(ws, 1007);
          await expectServerUnharmed();
        });

        test('an unmasked client frame closes the socket with 1002', async () => {
          const ws = await attack(target, signedIn, {
            opcode: OPCODE.text,
            payload: Buffer.from('{"type":"ping"}'),
            masked: false,
          });
          await expectClosed(ws, 1002);
          await expectServerUnharmed();
        });

        test('a reserved opcode closes the socket with 1002', async () => {
          const ws = await attack(target, signedIn, { opcode: 0x3, payload: Buffer.from('x') });
          await expectClosed(ws, 1002);
          await expectServerUnharmed();
        });

        test('a fragmented message that never ends, from a peer that stops answering, closes with 1008', async () => {
          const ws = await attack(target, signedIn, {
            opcode: OPCODE.text,
            payload: Buffer.from('{"type":'),
            fin: false,
          });
          ws.answerPings = false;
          const closed = await ws.closed(8 * PING_INTERVAL);
          // Without a sign-in, the path's own deadline may come first.
          const expected = signedIn || !target.ownDeadlineCode ? [1008] : [1008, target.ownDeadlineCode];
          expect(expected).toContain(closed.code);
          await expectServerUnharmed();
        });

        test('a connection that ends in the middle of a frame is dropped', async () => {
          const before = openSockets(target.path);
          // A text frame announcing 4096 bytes, of which 100 arrive before the connection ends.
          const ws = await attack(
            target,
            signedIn,
            Buffer.concat([
              Buffer.from([0x81, 0x80 | 126, 0x10, 0x00]),
              crypto.randomBytes(4),
              Buffer.alloc(100, 0x20),
            ]),
          );
          ws.socket.end();
          await ws.closed();
          await waitFor(() => openSockets(target.path) === before);
          await expectServerUnharmed();
        });

        test('a flood of frames closes the socket with 1008 and says why', async () => {
          // Text frames: a flood of ping frames `ws` itself ends (maxPendingAutoPongs, no close frame).
          const frame = encodeFrame({ opcode: OPCODE.text, payload: Buffer.from('{"type":"ping"}') });
          const ws = await attack(target, signedIn, Buffer.concat(Array.from({ length: 2000 }, () => frame)));
          const closed = await expectClosed(ws, 1008);
          expect(closed.reason).toBe(TOO_MANY_FRAMES_REASON);
          await expectServerUnharmed();
        });

        test('200 sockets opened and dropped at once are all let go', async () => {
          const before = openSockets(target.path);
          const url = await target.url(signedIn);
          const crowd = await Promise.all(
            Array.from({ length: 200 }, async () => {
              const ws = await RawWebSocket.open(url);
              raw.push(ws);
              if (signedIn) await target.signIn(ws);
              return ws;
            }),
          );
          for (const ws of crowd) ws.socket.resetAndDestroy();
          await waitFor(() => openSockets(target.path) === before, 15_000);
          await expectServerUnharmed();
        }, 60_000);
      });
    });
  },
);

async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
