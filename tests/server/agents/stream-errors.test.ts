// An 'error' on any stream the server owns fails that piece of work with a clear outcome,
// never the process. HTTP request bodies cut off mid-way, an agent's destination that resets the TCP
// connection, a mail server that drops the connection, and (on PostgreSQL) database connections
// killed by the database. An unhandled 'error' here is an uncaught exception, which fails the test.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Bundle } from '@medplum/fhirtypes';
import type { BloomAgent } from '../../../src/agent/agent';
import { ackCodeOf } from '../../../src/agent/hl7-ack';
import { createMllpServer, encodeMllp } from '../../../src/agent/mllp';
import { HL7_V2_CONTENT_TYPE } from '../../../src/fhir/agent-protocol';
import { openPostgres } from '../../../src/server/db';
import { call, startClinic, startSibling } from '../operations/support/clinic';
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

/** A TCP server that resets every connection: at once, or after the first bytes arrive. */
async function startResettingServer(
  when: 'on-connect' | 'on-data',
): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    if (when === 'on-connect') socket.resetAndDestroy();
    else socket.once('data', () => socket.resetAndDestroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A request whose body stops after `sent` of the `declared` bytes, then the connection is reset. */
function abortedRequest(
  url: string,
  headers: Record<string, string>,
  declared: number,
  sent: number,
): Promise<void> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => {
      const head = [
        `POST ${pathname}${search} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        `Content-Length: ${declared}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(Buffer.alloc(sent, 0x61), () => {
        // Let the server start reading the body before the connection goes.
        setTimeout(() => {
          socket.resetAndDestroy();
          resolve();
        }, 100);
      });
    });
    socket.on('error', () => resolve());
  });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

describe.each(databases())('issue #19 stream errors fail one piece of work on %s', (engine, kind) => {
  let clinic: Clinic;
  let binaryDir: string;
  let destinations: LoopbackDestinations;
  let setup: AgentSetup;
  let agent: BloomAgent;
  let resetOnConnect: Awaited<ReturnType<typeof startResettingServer>>;
  let resetOnData: Awaited<ReturnType<typeof startResettingServer>>;

  beforeAll(async () => {
    binaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-stream-errors-'));
    clinic = await startClinic(kind, { BINARY_DIR: binaryDir });
    destinations = await startLoopbackDestinations();
    resetOnConnect = await startResettingServer('on-connect');
    resetOnData = await startResettingServer('on-data');
    setup = await createAgentSetup(clinic.server.db, clinic.projectId);
    agent = await startAgent(
      agentConfig(clinic.server.baseUrl, setup, {
        lab: destinations.echoUrl,
        resetAtOnce: `mllp://127.0.0.1:${resetOnConnect.port}`,
        resetOnMessage: `tcp://127.0.0.1:${resetOnData.port}`,
      }),
    );
  }, 240_000);

  afterAll(async () => {
    await agent?.stop();
    await destinations?.close();
    await resetOnConnect?.close();
    await resetOnData?.close();
    await clinic?.server.close();
    fs.rmSync(binaryDir, { recursive: true, force: true });
  });

  async function expectHealthy(): Promise<void> {
    expect((await fetch(`${clinic.server.baseUrl}healthcheck`)).status).toBe(200);
  }

  async function total(type: string): Promise<number> {
    const found = await call<Bundle>(
      clinic.server,
      'GET',
      `fhir/R4/${type}?_total=accurate&_count=0`,
      clinic.admin,
    );
    expect(found.status).toBe(200);
    return found.body.total as number;
  }

  test('a Binary upload cut off mid-way stores nothing, leaves no file, and the next upload works', async () => {
    const before = await total('Binary');
    await abortedRequest(
      `${clinic.server.fhirUrl}Binary?_filename=scan.png`,
      { authorization: `Bearer ${clinic.maria.access_token}`, 'content-type': 'image/png' },
      1024 * 1024,
      200 * 1024,
    );
    await expectHealthy();
    expect(await total('Binary')).toBe(before);
    expect(filesUnder(binaryDir)).toEqual([]);

    const upload = await fetch(`${clinic.server.fhirUrl}Binary`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clinic.maria.access_token}`, 'content-type': 'image/png' },
      body: Buffer.alloc(1024, 1),
    });
    expect(upload.status).toBe(201);
    expect(await total('Binary')).toBe(before + 1);
  });

  test('a JSON create cut off mid-way creates nothing', async () => {
    const before = await total('Observation');
    await abortedRequest(
      `${clinic.server.fhirUrl}Observation`,
      { authorization: `Bearer ${clinic.admin.access_token}`, 'content-type': 'application/fhir+json' },
      64 * 1024,
      1024,
    );
    await expectHealthy();
    expect(await total('Observation')).toBe(before);
  });

  test('an agent destination that resets the connection fails that $push with 502; the agent stays', async () => {
    const push = (destination: string) =>
      call(clinic.server, 'POST', `fhir/R4/Agent/${setup.agent.id}/$push`, clinic.admin, {
        body: {
          destination,
          body: hl7Message('RESET001'),
          contentType: HL7_V2_CONTENT_TYPE,
          waitForResponse: true,
        },
      });
    for (const destination of ['resetAtOnce', 'resetOnMessage']) {
      const refused = await push(destination);
      expect(refused.status).toBe(502);
      expect(refused.text).toMatch(/ECONNRESET|reset|closed/i);
    }
    expect(agent.isConnected).toBe(true);
    const delivered = await push('lab');
    expect(delivered.status).toBe(200);
    expect(ackCodeOf(delivered.text)).toBe('AA');
    await expectHealthy();
  });

  test('an MLLP peer that resets in the middle of a message leaves the listener serving others', async () => {
    const server = createMllpServer((message) => `ACK ${message}`);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      await new Promise<void>((resolve) => {
        const peer = net.connect({ host: '127.0.0.1', port }, () => {
          peer.write(encodeMllp('MSH|half a message').subarray(0, 8), () => {
            peer.resetAndDestroy();
            resolve();
          });
        });
        peer.on('error', () => undefined);
      });
      const answer = await new Promise<string>((resolve, reject) => {
        const peer = net.connect({ host: '127.0.0.1', port }, () => peer.write(encodeMllp('MSH|whole')));
        peer.on('data', (data) => {
          resolve(data.toString());
          peer.destroy();
        });
        peer.on('error', reject);
      });
      expect(answer).toContain('ACK MSH|whole');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a mail server that drops the connection fails that email with 502 naming the mail server', async () => {
    const mail = await startResettingServer('on-connect');
    const sibling = await startSibling(clinic, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(mail.port) });
    try {
      const sent = await call(sibling, 'POST', 'email/v1/send', clinic.admin, {
        contentType: 'application/json',
        body: { to: 'someone@example.org', subject: 'Hello', text: 'Hi' },
      });
      expect(sent.status).toBe(502);
      expect(sent.text).toContain('The mail server did not take the email');
      expect((await fetch(`${sibling.baseUrl}healthcheck`)).status).toBe(200);
    } finally {
      await sibling.close();
      await mail.close();
    }
  });

  if (engine === 'postgres') {
    const url = process.env.TEST_DATABASE_URL as string;
    const terminate = async (pids: number[]): Promise<void> => {
      const admin = await openPostgres({ connectionString: url, maxConnections: 1 });
      try {
        await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [
          pids.map(String),
        ]);
      } finally {
        await admin.close();
      }
    };
    const backendPid = async (): Promise<number> =>
      (await clinic.server.db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;

    test('a connection killed by the database in the middle of a transaction fails that transaction only', async () => {
      const killed = clinic.server.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await terminate([rows[0].pid]);
        // The 'error' of the lost connection arrives while the transaction waits here.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.query('SELECT 1');
      });
      await expect(killed).rejects.toThrow();
      expect((await clinic.server.db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await expectHealthy();
    });

    test('idle pooled connections killed by the database are replaced: the API goes on', async () => {
      const pids = new Set<number>();
      for (let i = 0; i < 8; i++) pids.add(await backendPid());
      await terminate([...pids]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expectHealthy();
      expect(await total('Patient')).toBeGreaterThan(0);
    });
  }
});
