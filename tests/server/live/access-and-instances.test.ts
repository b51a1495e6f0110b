// Live updates and who hears what (issue #8 Tests): a patient's socket never receives another
// patient's resource, with real sign-ins and access tokens; and two server instances on one
// database (two PostgreSQL pools on one schema with TEST_DATABASE_URL, else one PGlite shared by two
// servers), where a write through one reaches a socket bound on the other through LISTEN/NOTIFY.
import crypto from 'node:crypto';
import type { AccessPolicy, Communication, Parameters, Project, Subscription } from '@medplum/fhirtypes';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildServer } from '../../../src/server/app';
import { loadConfig } from '../../../src/server/config';
import { migrate, openPostgres } from '../../../src/server/db';
import type { Database } from '../../../src/server/db';
import { findFreePort } from '../../../src/server/free-port';
import { Repository, systemContext } from '../../../src/server/repo';
import { addMembership, createProject, createUser, signIn } from '../auth/support/auth-fixtures';
import type { Tokens } from '../auth/support/auth-fixtures';
import { databases, openTestPGlite } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { focusOf, isError, isStatus, LiveSocket } from './support/live-socket';

async function getJson<T>(url: string, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: (await response.json()) as T };
}

async function postJson<T>(url: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/fhir+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

function bindingToken(parameters: Parameters): string {
  return parameters.parameter?.find((p) => p.name === 'token')?.valueString as string;
}

describe.each(databases())('issue #8 live updates obey access control (SPEC §6) on %s', (_engine, kind) => {
  let server: TestServer;
  let project: Project;
  let maria: Tokens;
  let aisha: Tokens;
  let practitioner: Tokens;
  let subscription: Subscription;
  const sockets: LiveSocket[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    project = await createProject(server.db, 'Live Clinic');
    const repo = new Repository(server.db, systemContext(project.id));
    // Patients: their own Communications, and the clinic's Subscriptions read-only.
    const policy = await repo.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Live patient',
      compartment: { reference: '%patient' },
      resource: [
        { resourceType: 'Patient', compartment: { reference: '%patient' } },
        { resourceType: 'Communication', compartment: { reference: '%patient' } },
        { resourceType: 'Subscription', readonly: true },
      ],
    });
    const withPolicy = { ...project, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}` } };
    const accounts = await Promise.all(
      (['Patient', 'Patient', 'Practitioner'] as const).map(async (type) => {
        const user = await createUser(server.db);
        await addMembership(server.db, user, withPolicy, type);
        return signIn(server.baseUrl, user.email as string);
      }),
    );
    [maria, aisha, practitioner] = accounts;
    // One Subscription on every Communication: what each patient hears is decided by access alone.
    subscription = await repo.createResource<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'all messages',
      criteria: 'Communication',
      channel: { type: 'websocket' },
    });
  });

  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });

  afterAll(async () => {
    await server.close();
  });

  const message = (patient: Tokens, text: string): Communication => ({
    resourceType: 'Communication',
    status: 'completed',
    subject: { reference: patient.profile?.reference },
    payload: [{ contentString: text }],
  });

  test("a patient's socket receives their own messages and never another patient's", async () => {
    const token = await getJson<Parameters>(
      `${server.fhirUrl}Subscription/${subscription.id}/$get-ws-binding-token`,
      maria.access_token,
    );
    expect(token.status).toBe(200);
    const socket = await LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`);
    sockets.push(socket);
    socket.bind(bindingToken(token.body));
    await socket.next(isStatus('handshake', subscription.id));
    const forAisha = await postJson<Communication>(
      `${server.fhirUrl}Communication`,
      message(aisha, 'for Aisha'),
      practitioner.access_token,
    );
    expect(forAisha.status).toBe(201);
    const forMaria = await postJson<Communication>(
      `${server.fhirUrl}Communication`,
      message(maria, 'for Maria'),
      practitioner.access_token,
    );
    expect(forMaria.status).toBe(201);
    const first = await socket.next(isStatus('event-notification'));
    expect(focusOf(first)).toBe(`Communication/${forMaria.body.id}`);
    // Aisha's arrives on her own socket.
    const aishaToken = await getJson<Parameters>(
      `${server.fhirUrl}Subscription/${subscription.id}/$get-ws-binding-token`,
      aisha.access_token,
    );
    const aishaSocket = await LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`);
    sockets.push(aishaSocket);
    aishaSocket.bind(bindingToken(aishaToken.body));
    await aishaSocket.next(isStatus('handshake', subscription.id));
    const again = await postJson<Communication>(
      `${server.fhirUrl}Communication`,
      message(aisha, 'again'),
      practitioner.access_token,
    );
    expect(focusOf(await aishaSocket.next(isStatus('event-notification')))).toBe(
      `Communication/${again.body.id}`,
    );
  });

  test('$get-ws-binding-token needs an access token, and a Subscription the caller can read', async () => {
    expect(
      (await getJson(`${server.fhirUrl}Subscription/${subscription.id}/$get-ws-binding-token`)).status,
    ).toBe(401);
    const elsewhere = await createProject(server.db, 'Elsewhere');
    const foreign = await new Repository(server.db, systemContext(elsewhere.id)).createResource<Subscription>(
      {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'x',
        criteria: 'Communication',
        channel: { type: 'websocket' },
      },
    );
    const refused = await getJson(
      `${server.fhirUrl}Subscription/${foreign.id}/$get-ws-binding-token`,
      maria.access_token,
    );
    expect(refused.status).toBe(404);
  });

  test('an access token is not a binding token', async () => {
    const socket = await LiveSocket.open(`${server.baseUrl.replace('http', 'ws')}ws/subscriptions-r4`);
    sockets.push(socket);
    socket.bind(maria.access_token);
    await socket.next(isError);
  });
});

describe('issue #8 two server instances on one database', () => {
  const url = process.env.TEST_DATABASE_URL;
  const schema = `live_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const databasesOpened: Database[] = [];
  const apps: FastifyInstance[] = [];
  const bases: string[] = [];

  let publicBase: string | undefined;

  async function startOn(db: Database): Promise<void> {
    const port = await findFreePort('localhost');
    // Instances behind one load balancer share BASE_URL (the tokens' issuer).
    publicBase ??= `http://localhost:${port}/`;
    const config = loadConfig({ PORT: String(port), LOG_LEVEL: 'silent', BASE_URL: publicBase });
    const app = await buildServer({ config, db, getContext: () => systemContext() });
    await app.listen({ port, host: 'localhost' });
    apps.push(app);
    bases.push(`http://localhost:${port}/`);
  }

  beforeAll(async () => {
    if (url) {
      // Two pools as two processes would have, on one schema.
      for (let i = 0; i < 2; i++) {
        const db = await openPostgres({ connectionString: url, schema, maxConnections: 4 });
        await migrate(db);
        databasesOpened.push(db);
        await startOn(db);
      }
    } else {
      const db = await openTestPGlite();
      databasesOpened.push(db);
      await startOn(db);
      await startOn(db);
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const db of databasesOpened) await db.close();
    if (url) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  test('a write through instance B reaches a socket bound on instance A', async () => {
    const [a, b] = bases;
    const created = await postJson<Subscription>(`${a}fhir/R4/Subscription`, {
      resourceType: 'Subscription',
      status: 'active',
      reason: 'two instances',
      criteria: 'Communication?subject=Patient/two-instances',
      channel: { type: 'websocket' },
    });
    // The binding token from B works on A: both share the signing key in the database.
    const token = await getJson<Parameters>(
      `${b}fhir/R4/Subscription/${created.body.id}/$get-ws-binding-token`,
    );
    const socket = await LiveSocket.open(`${a.replace('http', 'ws')}ws/subscriptions-r4`);
    try {
      socket.bind(bindingToken(token.body));
      await socket.next(isStatus('handshake', created.body.id));
      const written = await postJson<Communication>(`${b}fhir/R4/Communication`, {
        resourceType: 'Communication',
        status: 'completed',
        subject: { reference: 'Patient/two-instances' },
      });
      expect(written.status).toBe(201);
      expect(focusOf(await socket.next(isStatus('event-notification', created.body.id)))).toBe(
        `Communication/${written.body.id}`,
      );
    } finally {
      await socket.close();
    }
  });
});
