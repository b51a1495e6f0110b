// The platform client's pushToAgent against the REAL server (SPEC §7 Agent $push,
// §8 errors as the outcome's text): the demo clinic, the agent program in-process with client
// credentials, an MLLP echo server on loopback; the ACK comes back as text, without waiting the
// outcome is All OK, a disconnected agent and a patient are refused with the server's message.
import type { OperationOutcome } from '@medplum/fhirtypes';
import { BloomClient } from '../../src/client';
import { HL7_V2_CONTENT_TYPE } from '../../src/fhir/agent-protocol';
import { OperationOutcomeError } from '../../src/fhir/outcomes';
import type { BloomAgent } from '../../src/agent/agent';
import { DEFAULT_DEMO_PASSWORD } from '../../src/server/seed/demo';
import { Repository, systemContext } from '../../src/server/repo';
import { seedDemoClinic } from '../../src/server/seed';
import { databases } from '../server/support/test-databases';
import { startTestServer } from '../server/support/test-server';
import type { TestServer } from '../server/support/test-server';
import {
  agentConfig,
  createAgentSetup,
  hl7Message,
  startAgent,
  startLoopbackDestinations,
} from '../server/support/agent-fixtures';
import type { AgentSetup, LoopbackDestinations } from '../server/support/agent-fixtures';
import { signedInClient } from '../client/support/server-sign-in';

describe.each(databases())(
  'BloomClient pushToAgent against the real server on %s (issue #10)',
  (_engine, kind) => {
    let server: TestServer;
    let destinations: LoopbackDestinations;
    let setup: AgentSetup;
    let agent: BloomAgent;
    let admin: BloomClient;
    let maria: BloomClient;

    const signIn = (email: string): Promise<BloomClient> => signedInClient(server.baseUrl, email);

    beforeAll(async () => {
      server = await startTestServer(kind, {}, { requireAuth: true });
      await seedDemoClinic(new Repository(server.db, systemContext()), {
        demoPassword: DEFAULT_DEMO_PASSWORD,
      });
      [admin, maria] = await Promise.all(['admin', 'maria'].map((name) => signIn(`${name}@bloom.example`)));
      const projectId = (admin.getActiveLogin()?.project?.reference ?? '').split('/')[1];
      destinations = await startLoopbackDestinations();
      setup = await createAgentSetup(server.db, projectId);
      agent = await startAgent(agentConfig(server.baseUrl, setup, { lab: destinations.echoUrl }));
    }, 60_000);

    afterAll(async () => {
      await agent?.stop();
      await destinations?.close();
      await server?.close();
    });

    test('SPEC §7 pushToAgent waits for the ACK and returns it as text', async () => {
      const ack = await admin.pushToAgent<string>(
        setup.agent,
        'lab',
        hl7Message('CLIENT01'),
        HL7_V2_CONTENT_TYPE,
        true,
      );
      expect(typeof ack).toBe('string');
      expect(ack).toContain('MSA|AA|CLIENT01');
    });

    test('SPEC §7 pushToAgent without waiting resolves with All OK and the message arrives', async () => {
      const outcome = await admin.pushToAgent<OperationOutcome>(
        { reference: `Agent/${setup.agent.id}` },
        'lab',
        hl7Message('CLIENT02'),
        HL7_V2_CONTENT_TYPE,
        false,
      );
      expect(outcome.issue?.[0].details?.text).toBe('All OK');
      const until = Date.now() + 5000;
      while (!destinations.received.some((m) => m.includes('CLIENT02')) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(destinations.received.some((m) => m.includes('CLIENT02'))).toBe(true);
    });

    test('SPEC §8 pushToAgent rejects with the outcome text: a disconnected agent, an unknown destination, a patient', async () => {
      const idle = await createAgentSetup(
        server.db,
        (admin.getActiveLogin()?.project?.reference ?? '').split('/')[1],
        'Idle',
      );
      await expect(admin.pushToAgent(idle.agent, 'lab', 'x', 'text/plain', true)).rejects.toThrow(
        `Agent/${idle.agent.id} is not connected`,
      );
      await expect(admin.pushToAgent(setup.agent, 'nowhere', 'x', 'text/plain', true)).rejects.toThrow(
        `Agent/${setup.agent.id} has no destination 'nowhere'`,
      );
      await expect(maria.pushToAgent(setup.agent, 'lab', 'x', 'text/plain', true)).rejects.toBeInstanceOf(
        OperationOutcomeError,
      );
    });
  },
);
