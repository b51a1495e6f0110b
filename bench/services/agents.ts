// bench/services: Agent $push round trip over real HTTP on loopback, waiting for
// the ACK of an HL7 v2 message: server → agent WebSocket → MLLP echo destination → back. Direct:
// the agent is connected to the instance pushed to; relayed: a second instance on the same database
// passes the push on (agent_relay + NOTIFY). PGlite in-process. AGENT_BENCH_RUNS sets the count.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Agent, ClientApplication, Project, ProjectMembership } from '@medplum/fhirtypes';
import { BloomAgent } from '../../src/agent/agent';
import { parseDestination } from '../../src/agent/destinations';
import { buildAck } from '../../src/agent/hl7-ack';
import { createMllpServer } from '../../src/agent/mllp';
import { HL7_V2_CONTENT_TYPE } from '../../src/fhir/agent-protocol';
import { buildServer } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';
import { Repository, systemContext } from '../../src/server/repo';

export interface AgentPushLatency {
  runs: number;
  direct: { p50Ms: number; p99Ms: number };
  relayed: { p50Ms: number; p99Ms: number };
}

function percentile(sorted: number[], p: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))].toFixed(2));
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function measureAgentPush(
  runs = Number(process.env.AGENT_BENCH_RUNS ?? 200),
): Promise<AgentPushLatency> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-bench-agents-'));
  const db = await openDatabase({ ...loadConfig({ DATA_DIR: dataDir }), databaseUrl: undefined });
  await migrateServer(db);
  const echo = createMllpServer((message) => buildAck(message));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', () => resolve()));
  const echoUrl = `mllp://127.0.0.1:${(echo.address() as net.AddressInfo).port}`;
  const start = async () => {
    const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), port: 0 };
    const app = await buildServer({ config, db, getContext: () => systemContext(project.id) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as net.AddressInfo;
    return { app, base: `http://127.0.0.1:${address.port}/` };
  };
  const repo = new Repository(db, systemContext());
  const project = await repo.createResource<Project>({ resourceType: 'Project', name: 'Bench' });
  const projectRepo = new Repository(db, systemContext(project.id));
  const secret = crypto.randomBytes(16).toString('hex');
  const client = await projectRepo.createResource<ClientApplication>({
    resourceType: 'ClientApplication',
    secret,
  });
  await projectRepo.createResource<ProjectMembership>({
    resourceType: 'ProjectMembership',
    project: { reference: `Project/${project.id}` },
    user: { reference: `ClientApplication/${client.id}` },
    profile: { reference: `ClientApplication/${client.id}` },
  });
  const agentResource = await projectRepo.createResource<Agent>({
    resourceType: 'Agent',
    name: 'bench',
    status: 'active',
  });
  const a = await start();
  const b = await start();
  const agent = new BloomAgent(
    {
      baseUrl: a.base,
      clientId: client.id as string,
      clientSecret: secret,
      agentId: agentResource.id as string,
      destinations: [parseDestination({ name: 'lab', url: echoUrl })],
      destinationTimeout: 5000,
      heartbeatInterval: 10_000,
      maxReconnectDelay: 1000,
    },
    quiet,
  );
  try {
    await agent.start();
    await new Promise((r) => setTimeout(r, 200)); // the connection record reaches the database
    const time = async (base: string, i: number): Promise<number> => {
      const started = performance.now();
      const response = await fetch(`${base}fhir/R4/Agent/${agentResource.id}/$push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          destination: 'lab',
          contentType: HL7_V2_CONTENT_TYPE,
          waitForResponse: true,
          body: `MSH|^~\\&|BENCH|A|LAB|B|20260101120000||ADT^A01|B${i}|P|2.5\rPID|1||${i}\r`,
        }),
      });
      await response.text();
      if (!response.ok) throw new Error(`$push answered ${response.status}`);
      return performance.now() - started;
    };
    const series = async (base: string) => {
      await time(base, -1);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await time(base, i));
      times.sort((x, y) => x - y);
      return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
    };
    return { runs, direct: await series(a.base), relayed: await series(b.base) };
  } finally {
    await agent.stop();
    await b.app.close();
    await a.app.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatAgentPush(figures: AgentPushLatency): string {
  return (
    `agents ($push waiting for the MLLP ACK, PGlite, ${figures.runs} runs each): ` +
    `direct p50 ${figures.direct.p50Ms} ms p99 ${figures.direct.p99Ms} ms; ` +
    `relayed via a second instance p50 ${figures.relayed.p50Ms} ms p99 ${figures.relayed.p99Ms} ms`
  );
}

if (process.argv[1]?.endsWith('agents.ts')) {
  measureAgentPush()
    .then((figures) => console.log(formatAgentPush(figures)))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
