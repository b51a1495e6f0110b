// The demo clinic behind a real server that requires tokens, with real sign-ins for the callers the
// Endpoints are tested as: Maria and Aisha (patients), Dr Chen (practitioner), the clinic
// admin, and the admin of another project. Shared by the operations, keyvalue, admin, email and
// idempotency tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Bot, Bundle, Resource } from '@medplum/fhirtypes';
import { buildServer } from '../../../../src/server/app';
import { loadConfig } from '../../../../src/server/config';
import { findTestPort } from '../../../support/test-port';
import { seedDemoClinic } from '../../../../src/server/seed';
import { Repository, systemContext } from '../../../../src/server/repo';
import { addMembership, createProject, createUser, signIn } from '../../auth/support/auth-fixtures';
import type { Tokens } from '../../auth/support/auth-fixtures';
import type { TestDatabaseKind } from '../../support/test-databases';
import { startTestServer } from '../../support/test-server';
import type { TestServer, TestServerOptions } from '../../support/test-server';

export const DEMO_PASSWORD = 'bloom-demo';

export interface Clinic {
  server: TestServer;
  maria: Tokens;
  aisha: Tokens;
  chen: Tokens;
  admin: Tokens;
  otherAdmin: Tokens;
  /** 'Project/<id>' of the demo clinic. */
  projectId: string;
  otherProjectId: string;
}

export async function startClinic(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  build?: TestServerOptions['build'],
): Promise<Clinic> {
  const server = await startTestServer(kind, env, { requireAuth: true, build });
  await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEMO_PASSWORD });
  const [maria, aisha, chen, admin] = await Promise.all(
    ['maria', 'aisha', 'dr.chen', 'admin'].map((name) =>
      signIn(server.baseUrl, `${name}@bloom.example`, DEMO_PASSWORD),
    ),
  );
  const otherProject = await createProject(server.db, 'Other Clinic');
  const otherUser = await createUser(server.db);
  await addMembership(server.db, otherUser, otherProject, 'Practitioner', { admin: true });
  const otherAdmin = await signIn(server.baseUrl, otherUser.email as string);
  return {
    server,
    maria,
    aisha,
    chen,
    admin,
    otherAdmin,
    projectId: (admin.project?.reference as string).split('/')[1],
    otherProjectId: otherProject.id as string,
  };
}

export interface HttpResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON when it is JSON, else undefined. */
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is when a string; JSON otherwise. */
  contentType?: string;
  headers?: Record<string, string>;
}

/** One HTTP request to the server, as `tokens`' caller (anonymous when undefined). */
export async function call<T = Record<string, unknown>>(
  server: Pick<TestServer, 'baseUrl'>,
  method: string,
  path: string,
  tokens: Tokens | undefined,
  options: RequestOptions = {},
): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (tokens) {
    headers.authorization = `Bearer ${tokens.access_token}`;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = options.contentType ?? 'application/fhir+json';
  }
  const response = await fetch(server.baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}

/** The resources a search as `tokens`' caller finds (FHIR search over HTTP); the search must answer 200. */
export async function searchAs<T extends Resource>(
  server: Pick<TestServer, 'baseUrl'>,
  tokens: Tokens,
  resourceType: T['resourceType'],
  query: string,
): Promise<T[]> {
  const response = await call<Bundle<T>>(server, 'GET', `fhir/R4/${resourceType}?${query}`, tokens);
  expect(response.status).toBe(200);
  return (response.body.entry ?? []).map((entry) => entry.resource as T);
}

/** A Bot created and deployed by the clinic's admin (POST Bot, then Bot/{id}/$deploy), as Medplum's CLI does. */
export async function deployBot(
  clinic: Clinic,
  name: string,
  code: string,
  filename = 'bot.js',
): Promise<Bot> {
  const created = await call<Bot>(clinic.server, 'POST', 'fhir/R4/Bot', clinic.admin, {
    body: { resourceType: 'Bot', name },
  });
  if (created.status !== 201) throw new Error(`POST Bot answered ${created.status}: ${created.text}`);
  const deployed = await call(clinic.server, 'POST', `fhir/R4/Bot/${created.body.id}/$deploy`, clinic.admin, {
    body: { code, filename },
    contentType: 'application/json',
  });
  if (deployed.status !== 200) throw new Error(`$deploy answered ${deployed.status}: ${deployed.text}`);
  return created.body;
}

/** A fresh DATA_DIR for a clinic whose emails land in DATA_DIR/outbox/. */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-ops-'));
}

/** The emails written to DATA_DIR/outbox/ so far, oldest first. */
export function outbox(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .sort()
        .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
    : [];
}

/**
 * A second real server over the clinic's database with other settings (e.g. SMTP): tokens issued by
 * the first are valid here too: the signing key lives in the database and the issuer (BASE_URL) is
 * the first server's.
 */
export async function startSibling(clinic: Clinic, env: Record<string, string>): Promise<TestServer> {
  const port = await findTestPort('localhost');
  const config = loadConfig({
    PORT: String(port),
    LOG_LEVEL: 'silent',
    APP_PORT: '3000',
    BASE_URL: clinic.server.baseUrl,
    // As startTestServer: a loaded test machine must not see its requests shed (load-shedding.ts).
    PGLITE_MAX_QUEUE_WAIT: '600000',
    ...env,
  });
  const app = await buildServer({ config, db: clinic.server.db });
  await app.listen({ port, host: 'localhost' });
  return {
    app,
    db: clinic.server.db,
    config,
    // Requests go to this server's own port; BASE_URL only names the issuer.
    baseUrl: `http://localhost:${port}/`,
    fhirUrl: `http://localhost:${port}/fhir/R4/`,
    async close() {
      await app.close();
    },
  };
}
