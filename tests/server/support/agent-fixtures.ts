// Agents under test: a ClientApplication with a secret in the demo clinic for
// the agent program to sign in with, an Agent resource, HL7 v2 destinations on loopback (an MLLP
// echo server answering each message with its ACK, and one that never answers), and the agent
// program itself, run in-process against the real server.
import net from 'node:net';
import crypto from 'node:crypto';
import type { Agent, ClientApplication, Project } from '@medplum/fhirtypes';
import { BloomAgent } from '../../../src/agent/agent';
import type { AgentLogger } from '../../../src/agent/agent';
import { parseDestination } from '../../../src/agent/destinations';
import type { AgentConfig } from '../../../src/agent/config';
import { buildAck } from '../../../src/agent/hl7-ack';
import { createMllpServer } from '../../../src/agent/mllp';
import { Repository, systemContext } from '../../../src/server/repo';
import type { Database } from '../../../src/server/db';
import { createClient } from '../auth/support/auth-fixtures';

/** Quiet unless AGENT_TEST_LOG is set (then the agent program's log goes to the console). */
export const silentLogger: AgentLogger = process.env.AGENT_TEST_LOG
  ? { info: (m) => console.log(m), warn: (m) => console.log(m), error: (m) => console.log(m) }
  : { info: () => undefined, warn: () => undefined, error: () => undefined };

export function hl7Message(controlId: string): string {
  return `MSH|^~\\&|BLOOM|CLINIC|LAB|HOSPITAL|20260101120000||ADT^A01|${controlId}|P|2.5\rPID|1||12345||Doe^Jane\r`;
}

export interface LoopbackDestinations {
  /** Answers each message with its AA ACK; `received` lists what arrived. */
  echoUrl: string;
  /** Reads messages and never answers. */
  silentUrl: string;
  /** A port nobody listens on. */
  closedUrl: string;
  received: string[];
  close(): Promise<void>;
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startLoopbackDestinations(): Promise<LoopbackDestinations> {
  const received: string[] = [];
  const echo = createMllpServer((message) => {
    received.push(message);
    return buildAck(message);
  });
  const silent = createMllpServer(() => undefined);
  const unused = net.createServer();
  const [echoPort, silentPort, closedPort] = await Promise.all([
    listen(echo),
    listen(silent),
    listen(unused),
  ]);
  await closeServer(unused);
  const sockets = new Set<net.Socket>();
  for (const server of [echo, silent]) server.on('connection', (s: net.Socket) => sockets.add(s));
  return {
    echoUrl: `mllp://127.0.0.1:${echoPort}`,
    silentUrl: `mllp://127.0.0.1:${silentPort}`,
    closedUrl: `mllp://127.0.0.1:${closedPort}`,
    received,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([closeServer(echo), closeServer(silent)]);
    },
  };
}

export interface AgentSetup {
  client: ClientApplication & { id: string; secret: string };
  agent: Agent & { id: string };
}

/** A client application (with its membership) and an active Agent in `projectId`. */
export async function createAgentSetup(
  db: Database,
  projectId: string,
  name = 'Lab agent',
): Promise<AgentSetup> {
  const repo = new Repository(db, systemContext(projectId));
  const project = await repo.readResource<Project>('Project', projectId);
  const secret = crypto.randomBytes(24).toString('hex');
  const client = await createClient(db, project, { name: `${name} client`, secret });
  const agent = await repo.createResource<Agent>({ resourceType: 'Agent', name, status: 'active' });
  return { client: client as AgentSetup['client'], agent: agent as AgentSetup['agent'] };
}

export function agentConfig(
  baseUrl: string,
  setup: AgentSetup,
  destinations: Record<string, string>,
  overrides: Partial<AgentConfig> = {},
): AgentConfig {
  return {
    baseUrl,
    clientId: setup.client.id,
    clientSecret: setup.client.secret,
    agentId: setup.agent.id,
    destinations: Object.entries(destinations).map(([name, url]) => parseDestination({ name, url })),
    destinationTimeout: 5000,
    heartbeatInterval: 10_000,
    maxReconnectDelay: 1000,
    ...overrides,
  };
}

/** Starts the agent program in-process; the caller stops it. */
export async function startAgent(config: AgentConfig): Promise<BloomAgent> {
  const agent = new BloomAgent(config, silentLogger);
  await agent.start();
  return agent;
}
