// Agents over real HTTP and a real WebSocket (SPEC §7 Agent $push):
// the demo clinic, the agent program in-process signing in with client credentials, HL7 v2 over
// MLLP to an echo server on loopback. $push answers with the ACK, or at once without waiting; a
// disconnected agent, an unknown destination, a silent or unreachable destination, bad parameters
// and callers whose access rules do not reach the Agent get clear outcomes with their statuses.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  AccessPolicy,
  Agent,
  AuditEvent,
  Communication,
  Device,
  Endpoint,
  OperationOutcome,
  Project,
  ProjectMembership,
} from '@medplum/fhirtypes';
import WebSocket from 'ws';
import { BloomAgent } from '../../../src/agent/agent';
import { ackCodeOf } from '../../../src/agent/hl7-ack';
import { sendMllp } from '../../../src/agent/mllp';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { findTestPort } from '../../support/test-port';
import { AGENT_WS_PATH, HL7_V2_CONTENT_TYPE } from '../../../src/fhir/agent-protocol';
import { Repository, systemContext } from '../../../src/server/repo';
import { findMembershipsByUser } from '../../../src/server/repo/lookups';
import { addMembership, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { call, deployBot, startClinic, startSibling } from '../operations/support/clinic';
import type { Clinic } from '../operations/support/clinic';
import {
  agentConfig,
  createAgentSetup,
  hl7Message,
  startAgent,
  startLoopbackDestinations,
} from '../support/agent-fixtures';
import type { AgentSetup, LoopbackDestinations } from '../support/agent-fixtures';
import { databases } from '../support/test-databases';
import type { TestServer } from '../support/test-server';

function text(body: unknown): string {
  return ((body as OperationOutcome).issue ?? []).map((i) => i.details?.text ?? '').join('; ');
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The messages a raw socket receives, and how it closed. */
function openRawSocket(
  url: string,
): Promise<{ ws: WebSocket; messages: Record<string, unknown>[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: Record<string, unknown>[] = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.on('open', () => resolve({ ws, messages, closed }));
    ws.on('error', reject);
  });
}

describe.each(databases())(
  'issue #10 agents over HTTP and WebSocket (SPEC §7 Agent $push) on %s',
  (_engine, kind) => {
    let clinic: Clinic;
    let destinations: LoopbackDestinations;
    let setup: AgentSetup;
    let agent: BloomAgent;
    let wsUrl: string;
    let binaryDir: string;

    const push = (tokens: Tokens, agentId: string, body: unknown, contentType = 'application/fhir+json') =>
      call(clinic.server, 'POST', `fhir/R4/Agent/${agentId}/$push`, tokens, { body, contentType });

    beforeAll(async () => {
      binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-agents-'));
      clinic = await startClinic(kind, { BINARY_DIR: binaryDir });
      destinations = await startLoopbackDestinations();
      setup = await createAgentSetup(clinic.server.db, clinic.projectId);
      wsUrl = clinic.server.baseUrl.replace(/^http/, 'ws').replace(/\/$/, '') + AGENT_WS_PATH;
      agent = await startAgent(
        agentConfig(clinic.server.baseUrl, setup, {
          lab: destinations.echoUrl,
          silent: destinations.silentUrl,
          down: destinations.closedUrl,
        }),
      );
    }, 240_000);

    afterAll(async () => {
      await agent?.stop();
      await destinations?.close();
      await clinic?.server.close();
    });

    it('the agent program connects with client credentials', () => {
      expect(agent.isConnected).toBe(true);
    });

    it('refuses an agent with a bad client secret, and sockets with a bad or a user token', async () => {
      const config = agentConfig(clinic.server.baseUrl, setup, { lab: destinations.echoUrl });
      await expect(startAgent({ ...config, clientSecret: 'wrong-secret' })).rejects.toThrow();

      const bad = await openRawSocket(wsUrl);
      bad.ws.send(
        JSON.stringify({
          type: 'agent:connect:request',
          accessToken: 'not-a-token',
          agentId: setup.agent.id,
        }),
      );
      expect(await bad.closed).toBe(4401);
      expect(bad.messages).toEqual([{ type: 'agent:error', body: 'Invalid access token' }]);

      // A person's token is not an agent's: agents sign in as their client application.
      const user = await openRawSocket(wsUrl);
      user.ws.send(
        JSON.stringify({
          type: 'agent:connect:request',
          accessToken: clinic.admin.access_token,
          agentId: setup.agent.id,
        }),
      );
      expect(await user.closed).toBe(4401);

      const early = await openRawSocket(wsUrl);
      early.ws.send(JSON.stringify({ type: 'agent:heartbeat:request' }));
      expect(await early.closed).toBe(4401);
      expect(agent.isConnected).toBe(true);
    });

    it('refuses a client whose project has no such Agent (4403)', async () => {
      const other = await createAgentSetup(clinic.server.db, clinic.otherProjectId, 'Other agent');
      const refused = startAgent(agentConfig(clinic.server.baseUrl, { ...other, agent: setup.agent }, {}));
      await expect(refused).rejects.toThrow(`Agent/${setup.agent.id} not found or not readable`);
    });

    it('pushes an HL7 v2 message over MLLP and answers with the ACK (waitForResponse)', async () => {
      const message = hl7Message('PUSH0001');
      const response = await push(clinic.admin, setup.agent.id, {
        destination: 'lab',
        body: message,
        contentType: HL7_V2_CONTENT_TYPE,
        waitForResponse: true,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(HL7_V2_CONTENT_TYPE);
      expect(ackCodeOf(response.text)).toBe('AA');
      expect(response.text).toContain('MSA|AA|PUSH0001');
      expect(destinations.received).toContain(message);
    });

    it('answers at once with All OK when not waiting, and the message still arrives', async () => {
      const message = hl7Message('PUSH0002');
      const response = await push(clinic.chen, setup.agent.id, {
        destination: 'lab',
        body: message,
        contentType: HL7_V2_CONTENT_TYPE,
        waitForResponse: false,
      });
      expect(response.status).toBe(200);
      expect(text(response.body)).toBe('All OK');
      await waitFor(() => destinations.received.includes(message));
    });

    it('takes FHIR Parameters, a Device destination (its url), and Agent/$push?identifier=', async () => {
      const repo = new Repository(clinic.server.db, systemContext(clinic.projectId));
      const device = await repo.createResource<Device>({ resourceType: 'Device', url: destinations.echoUrl });
      const response = await push(clinic.admin, setup.agent.id, {
        resourceType: 'Parameters',
        parameter: [
          { name: 'destination', valueString: `Device/${device.id}` },
          { name: 'body', valueString: hl7Message('PUSH0003') },
          { name: 'contentType', valueString: HL7_V2_CONTENT_TYPE },
          { name: 'waitForResponse', valueBoolean: true },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.text).toContain('MSA|AA|PUSH0003');

      await repo.updateResource({
        ...setup.agent,
        identifier: [{ system: 'urn:bloom:agents', value: 'lab-1' }],
      });
      const byIdentifier = await call(
        clinic.server,
        'POST',
        `fhir/R4/Agent/$push?identifier=${encodeURIComponent('urn:bloom:agents|lab-1')}`,
        clinic.admin,
        {
          body: {
            destination: 'lab',
            body: hl7Message('PUSH0004'),
            contentType: HL7_V2_CONTENT_TYPE,
            waitForResponse: true,
          },
        },
      );
      expect(byIdentifier.status).toBe(200);
      expect(byIdentifier.text).toContain('MSA|AA|PUSH0004');
    });

    it('refuses unknown destinations (400), silent ones time out (504), unreachable ones are 502', async () => {
      const base = { body: hl7Message('PUSH0005'), contentType: HL7_V2_CONTENT_TYPE, waitForResponse: true };
      const unknown = await push(clinic.admin, setup.agent.id, { ...base, destination: 'pharmacy' });
      expect(unknown.status).toBe(400);
      expect(text(unknown.body)).toBe(`Agent/${setup.agent.id} has no destination 'pharmacy'`);
      // Not listed by the agent even without waiting: nothing is sent.
      const unknownNoWait = await push(clinic.admin, setup.agent.id, {
        ...base,
        destination: 'pharmacy',
        waitForResponse: false,
      });
      expect(unknownNoWait.status).toBe(400);
      const noDevice = await push(clinic.admin, setup.agent.id, {
        ...base,
        destination: 'Device/does-not-exist',
      });
      expect(noDevice.status).toBe(400);
      expect(text(noDevice.body)).toBe('Destination device not found');

      const started = Date.now();
      const silent = await push(clinic.admin, setup.agent.id, {
        ...base,
        destination: 'silent',
        waitTimeout: 400,
      });
      expect(silent.status).toBe(504);
      expect(text(silent.body)).toBe(`No answer through Agent/${setup.agent.id} within 400 ms`);
      expect(Date.now() - started).toBeLessThan(5000);

      const down = await push(clinic.admin, setup.agent.id, { ...base, destination: 'down' });
      expect(down.status).toBe(502);
      expect(text(down.body)).toContain('Cannot reach mllp://127.0.0.1');
    });

    it('answers 503 for an agent that is not connected, and 400 for one that is off', async () => {
      const idle = await createAgentSetup(clinic.server.db, clinic.projectId, 'Idle agent');
      const body = {
        destination: 'lab',
        body: hl7Message('PUSH0006'),
        contentType: HL7_V2_CONTENT_TYPE,
        waitForResponse: true,
      };
      const response = await push(clinic.admin, idle.agent.id, body);
      expect(response.status).toBe(503);
      expect(text(response.body)).toBe(`Agent/${idle.agent.id} is not connected`);
      const repo = new Repository(clinic.server.db, systemContext(clinic.projectId));
      await repo.updateResource({ ...idle.agent, status: 'off' });
      const off = await push(clinic.admin, idle.agent.id, body);
      expect(off.status).toBe(400);
      expect(text(off.body)).toContain('is off');
    });

    it('refuses bad parameters with the parameter named (400) and non-JSON bodies (415)', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ body: 'x', contentType: 'text/plain' }, 'Missing destination parameter'],
        [{ destination: 'lab', contentType: 'text/plain' }, 'Missing body parameter'],
        [{ destination: 'lab', body: 'x' }, 'Missing contentType parameter'],
        [
          { destination: 'lab', body: 'x', contentType: 'text/plain', waitForResponse: 'yes' },
          'waitForResponse must be true or false',
        ],
        [
          { destination: 'lab', body: 'x', contentType: 'text/plain', waitTimeout: 60_000 },
          'waitTimeout must be',
        ],
      ];
      for (const [body, expected] of cases) {
        const response = await push(clinic.admin, setup.agent.id, body);
        expect(response.status).toBe(400);
        expect(text(response.body)).toContain(expected);
      }
      const form = await push(clinic.admin, setup.agent.id, 'destination=lab', 'text/plain');
      expect(form.status).toBe(415);
    });

    it('refuses callers whose access rules do not reach the Agent: a patient, a restricted practitioner', async () => {
      const body = {
        destination: 'lab',
        body: hl7Message('PUSH0007'),
        contentType: HL7_V2_CONTENT_TYPE,
        waitForResponse: true,
      };
      const before = destinations.received.length;
      const byMaria = await push(clinic.maria, setup.agent.id, body);
      expect([403, 404]).toContain(byMaria.status);

      // A practitioner whose AccessPolicy lists Patient and Observation only.
      const repo = new Repository(clinic.server.db, systemContext(clinic.projectId));
      const policy = await repo.createResource<AccessPolicy>({
        resourceType: 'AccessPolicy',
        name: 'Front desk',
        resource: [{ resourceType: 'Patient' }, { resourceType: 'Observation' }],
      });
      const project = await repo.readResource<Project>('Project', clinic.projectId);
      const user = await createUser(clinic.server.db);
      const membership = await addMembership(clinic.server.db, user, project, 'Practitioner');
      await repo.updateResource<ProjectMembership>({
        ...membership,
        accessPolicy: { reference: `AccessPolicy/${policy.id}` },
      });
      expect(
        (await findMembershipsByUser(clinic.server.db, `User/${user.id}`))[0].accessPolicy,
      ).toBeDefined();
      const frontDesk = await signIn(clinic.server.baseUrl, user.email as string);
      const byFrontDesk = await push(frontDesk, setup.agent.id, body);
      expect([403, 404]).toContain(byFrontDesk.status);
      expect(destinations.received.length).toBe(before);

      const anonymous = await call(
        clinic.server,
        'POST',
        `fhir/R4/Agent/${setup.agent.id}/$push`,
        undefined,
        { body },
      );
      expect(anonymous.status).toBe(401);
    });

    it('a push reaching another instance on the same database goes through the instance the agent is on', async () => {
      const sibling: TestServer = await startSibling(clinic, {});
      try {
        const viaSibling = (body: Record<string, unknown>) =>
          call(sibling, 'POST', `fhir/R4/Agent/${setup.agent.id}/$push`, clinic.admin, { body });
        const base = {
          body: hl7Message('RELAY001'),
          contentType: HL7_V2_CONTENT_TYPE,
          waitForResponse: true,
        };
        const answered = await viaSibling({ ...base, destination: 'lab' });
        expect(answered.status).toBe(200);
        expect(answered.headers.get('content-type')).toContain(HL7_V2_CONTENT_TYPE);
        expect(answered.text).toContain('MSA|AA|RELAY001');

        const big = hl7Message('RELAY002') + `NTE|1||${'x'.repeat(20_000)}\r`;
        const sent = await viaSibling({ ...base, body: big, destination: 'lab', waitForResponse: false });
        expect(sent.status).toBe(200);
        await waitFor(() => destinations.received.includes(big));

        const unknown = await viaSibling({ ...base, destination: 'pharmacy' });
        expect(unknown.status).toBe(400);
        expect(text(unknown.body)).toBe(`Agent/${setup.agent.id} has no destination 'pharmacy'`);
        const silent = await viaSibling({ ...base, destination: 'silent', waitTimeout: 300 });
        expect(silent.status).toBe(504);
        const down = await viaSibling({ ...base, destination: 'down' });
        expect(down.status).toBe(502);
      } finally {
        await sibling.close();
      }
    });

    it("inbound: a message on an Agent.channel endpoint runs the channel's bot and its ACK goes back to the sender", async () => {
      const port = await findTestPort('127.0.0.1');
      const repo = new Repository(clinic.server.db, systemContext(clinic.projectId));
      const endpoint = await repo.createResource<Endpoint>({
        resourceType: 'Endpoint',
        status: 'active',
        connectionType: {
          system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type',
          code: 'hl7v2-mllp',
        },
        payloadType: [{ text: 'HL7 v2' }],
        address: `mllp://127.0.0.1:${port}`,
      });
      const code = `exports.handler = async (medplum, event) => {
      const input = event.input;
      const msh = input.getSegment('MSH');
      if (msh.getComponent(9, 3) === 'REFUSE') throw new Error('cannot file this message');
      await medplum.createResource({ resourceType: 'Communication', status: 'completed', payload: [{ contentString: 'HL7 ' + msh.getField(10).toString() }] });
      return input.buildAck();
    };`;
      const bot = await deployBot(clinic, 'ADT intake', code, 'intake.js');
      const inbound = await createAgentSetup(clinic.server.db, clinic.projectId, 'Intake agent');
      await repo.updateResource<Agent>({
        ...inbound.agent,
        channel: [
          {
            name: 'adt-in',
            endpoint: { reference: `Endpoint/${endpoint.id}` },
            targetReference: { reference: `Bot/${bot.id}` },
          },
        ],
      });
      const program = await startAgent(agentConfig(clinic.server.baseUrl, inbound, {}));
      try {
        expect(program.channelPorts).toEqual([port]);
        const ack = await sendMllp({
          host: '127.0.0.1',
          port,
          message: hl7Message('INBOUND1'),
          waitForResponse: true,
          timeoutMs: 10_000,
        });
        expect(ack).toContain('MSA|AA|INBOUND1');
        const { rows } = await clinic.server.db.query<{ content: Communication }>(
          `SELECT content FROM resource WHERE resource_type = 'Communication' AND content->'payload'->0->>'contentString' = $1`,
          ['HL7 INBOUND1'],
        );
        expect(rows).toHaveLength(1);
        expect(rows[0].content.meta?.author?.reference).toBe(`Bot/${bot.id}`);

        const refused = await sendMllp({
          host: '127.0.0.1',
          port,
          message: hl7Message('INBOUND2').replace('ADT^A01', 'ADT^A01^REFUSE'),
          waitForResponse: true,
          timeoutMs: 10_000,
        });
        expect(ackCodeOf(refused as string)).toBe('AE');
        expect(refused).toContain('cannot file this message');
        const audits = await clinic.server.db.query<{ content: AuditEvent }>(
          `SELECT content FROM resource WHERE resource_type = 'AuditEvent'
           AND content->'source'->'observer'->>'reference' = $1 ORDER BY seq`,
          [`Bot/${bot.id}`],
        );
        expect(audits.rows.map((r) => r.content.outcome)).toEqual(['0', '4']);
        expect(audits.rows[0].content.entity?.map((e) => e.what?.reference)).toContain(
          `Agent/${inbound.agent.id}`,
        );
      } finally {
        await program.stop();
      }
    });

    it('the agent program reconnects by itself when its server instance stops and comes back', async () => {
      const first = await startSibling(clinic, {});
      const port = new URL(first.baseUrl).port;
      const restartable = await createAgentSetup(clinic.server.db, clinic.projectId, 'Restartable agent');
      const program = await startAgent(
        agentConfig(first.baseUrl, restartable, { lab: destinations.echoUrl }),
      );
      let second: FastifyInstance | undefined;
      try {
        expect(program.isConnected).toBe(true);
        await first.close();
        await waitFor(() => !program.isConnected);
        const gone = await push(clinic.admin, restartable.agent.id, {
          destination: 'lab',
          body: hl7Message('RESTART1'),
          contentType: HL7_V2_CONTENT_TYPE,
          waitForResponse: true,
        });
        expect(gone.status).toBe(503);
        // The same instance again: a new server on the first one's port and database.
        const config = loadConfig({
          PORT: port,
          LOG_LEVEL: 'silent',
          APP_PORT: '3000',
          BASE_URL: clinic.server.baseUrl,
        });
        second = await buildServer({ config, db: clinic.server.db });
        await second.listen({ port: Number(port), host: 'localhost' });
        await waitFor(() => program.isConnected, 10_000);
        const back = await call(first, 'POST', `fhir/R4/Agent/${restartable.agent.id}/$push`, clinic.admin, {
          body: {
            destination: 'lab',
            body: hl7Message('RESTART2'),
            contentType: HL7_V2_CONTENT_TYPE,
            waitForResponse: true,
          },
        });
        expect(back.status).toBe(200);
        expect(back.text).toContain('MSA|AA|RESTART2');
      } finally {
        await program.stop();
        await second?.close();
      }
    });

    it('a newer connection of the same agent replaces the older, which stays off until started again', async () => {
      const second = await startAgent(
        agentConfig(clinic.server.baseUrl, setup, { lab2: destinations.echoUrl }),
      );
      const pushTo = (destination: string, controlId: string) =>
        push(clinic.admin, setup.agent.id, {
          destination,
          body: hl7Message(controlId),
          contentType: HL7_V2_CONTENT_TYPE,
          waitForResponse: true,
        });
      try {
        await waitFor(() => !agent.isConnected);
        // 'lab2' exists only in the second program's configuration: the second one is connected.
        const response = await pushTo('lab2', 'PUSH0008');
        expect(response.status).toBe(200);
        expect(response.text).toContain('MSA|AA|PUSH0008');
      } finally {
        await second.stop();
      }
      const none = await pushTo('lab', 'PUSH0009');
      expect(none.status).toBe(503);
      await agent.start();
      const again = await pushTo('lab', 'PUSH0010');
      expect(again.status).toBe(200);
      expect(again.text).toContain('MSA|AA|PUSH0010');
    });

    describe('the session of a connected agent is re-checked while its socket lives', () => {
      let sibling: TestServer;
      let siblingWs: string;

      beforeAll(async () => {
        // Tokens live 6 s; the server re-checks every session on its 500 ms heartbeat.
        sibling = await startSibling(clinic, { ACCESS_TOKEN_LIFETIME: '6', LIVE_HEARTBEAT_INTERVAL: '500' });
        siblingWs = sibling.baseUrl.replace(/^http/, 'ws').replace(/\/$/, '') + AGENT_WS_PATH;
      }, 60_000);

      afterAll(async () => {
        await sibling?.close();
      });

      async function clientToken(session: AgentSetup): Promise<string> {
        const response = await fetch(`${sibling.baseUrl}oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: session.client.id,
            client_secret: session.client.secret,
          }),
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { access_token: string }).access_token;
      }

      /** A raw agent socket connected as `session`'s Agent, answering heartbeats unless told not to. */
      async function connectRaw(session: AgentSetup, { answerHeartbeats = true } = {}) {
        const raw = await openRawSocket(siblingWs);
        const reason = new Promise<string>((resolve) =>
          raw.ws.on('close', (_code, why) => resolve(why.toString())),
        );
        raw.ws.on('message', (data) => {
          const type = (JSON.parse(data.toString()) as { type: string }).type;
          if (answerHeartbeats && type === 'agent:heartbeat:request') {
            raw.ws.send(JSON.stringify({ type: 'agent:heartbeat:response', version: 'test' }));
          }
        });
        raw.ws.send(
          JSON.stringify({
            type: 'agent:connect:request',
            accessToken: await clientToken(session),
            agentId: session.agent.id,
          }),
        );
        await waitFor(() => raw.messages.some((m) => m.type === 'agent:connect:response'));
        return { ...raw, reason };
      }

      it('a token that expires closes the socket saying so; the agent program renews its token on the same socket', async () => {
        const session = await createAgentSetup(clinic.server.db, clinic.projectId, 'Expiring agent');
        const raw = await connectRaw(session);
        expect(await raw.closed).toBe(4401);
        expect(await raw.reason).toMatch(/access token has expired/);
        expect(raw.messages).toContainEqual({
          type: 'agent:error',
          body: 'The access token has expired: sign in again and reconnect',
        });

        const log: string[] = [];
        const capture = (line: string) => void log.push(line);
        const program = new BloomAgent(
          agentConfig(sibling.baseUrl, session, { lab: destinations.echoUrl }, { heartbeatInterval: 1000 }),
          { info: capture, warn: capture, error: capture },
        );
        await program.start();
        // The token it connected with was issued before start() resolved: it expires by then + 6 s.
        const firstTokenExpired = Date.now() + 6_000;
        try {
          // Wait for the events themselves: the server has taken two renewed tokens on this socket,
          // and its first token has expired with two of the server's 500 ms session checks since.
          const renewals = () => log.filter((line) => line === 'Token renewed on the same connection').length;
          await waitFor(() => renewals() >= 2 && Date.now() > firstTokenExpired + 1_000, 60_000);
          // Still on its first socket, and pushes go through.
          expect(program.isConnected).toBe(true);
          expect(log.filter((line) => /Disconnected|Connected to/.test(line))).toHaveLength(1);
          const response = await call(
            sibling,
            'POST',
            `fhir/R4/Agent/${session.agent.id}/$push`,
            clinic.admin,
            {
              body: {
                destination: 'lab',
                body: hl7Message('RENEW01'),
                contentType: HL7_V2_CONTENT_TYPE,
                waitForResponse: true,
              },
              contentType: 'application/fhir+json',
            },
          );
          expect({ status: response.status, text: response.text }).toMatchObject({ status: 200 });
          expect(response.text).toContain('MSA|AA|RENEW01');
        } finally {
          await program.stop();
        }
      }, 90_000);

      it('an agent silent for two heartbeats is dropped; one that answers stays connected', async () => {
        const quiet = await connectRaw(
          await createAgentSetup(clinic.server.db, clinic.projectId, 'Quiet agent'),
          {
            answerHeartbeats: false,
          },
        );
        const talking = await connectRaw(
          await createAgentSetup(clinic.server.db, clinic.projectId, 'Talking agent'),
        );
        // The server drops a dead peer without a closing handshake: the client sees 1006.
        expect(await quiet.closed).toBe(1006);
        const heartbeats = () => talking.messages.filter((m) => m.type === 'agent:heartbeat:request').length;
        await waitFor(() => heartbeats() >= 4);
        expect(talking.ws.readyState).toBe(WebSocket.OPEN);
        talking.ws.close();
      }, 60_000);

      it('an Agent or a ClientApplication set off closes its socket with the reason', async () => {
        const repo = new Repository(clinic.server.db, systemContext(clinic.projectId));
        const first = await createAgentSetup(clinic.server.db, clinic.projectId, 'Agent turned off');
        const agentOff = await connectRaw(first);
        await repo.updateResource<Agent>({ ...first.agent, status: 'off' });
        expect(await agentOff.closed).toBe(4403);
        expect(await agentOff.reason).toBe(`Agent/${first.agent.id} is off`);

        const second = await createAgentSetup(clinic.server.db, clinic.projectId, 'Client turned off');
        const clientOff = await connectRaw(second);
        await repo.updateResource({ ...second.client, status: 'off' });
        expect(await clientOff.closed).toBe(4403);
        expect(await clientOff.reason).toBe(`ClientApplication/${second.client.id} is off`);
      }, 60_000);
    });
  },
);
