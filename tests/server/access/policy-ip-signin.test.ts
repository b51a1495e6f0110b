// AccessPolicy.ipAccessRule at sign-in and on every request (SPEC §6, §7 Authentication), over
// real HTTP on PGlite and PostgreSQL. Each request comes from a chosen loopback source address
// (127.0.0.x), so one test is several clients: 127.0.0.1 (and ::1) are blocked by the policy, the
// test's own 127.0.61.x addresses are let in by its `*` rule. Medplum checks the rules when a
// login gets its membership; Bloom does too (auth/login, auth/profile, registration's code) and
// before the grants that issue tokens without a code (client credentials, JWT bearer, exchange).
import http from 'node:http';
import type { AccessPolicy, Observation, Practitioner, Project, ProjectMembership } from '@medplum/fhirtypes';
import type { Database } from '../../../src/server/db';
import { Repository, systemContext } from '../../../src/server/repo';
import { findMembershipsByUser } from '../../../src/server/repo/lookups';
import {
  createClient,
  createProject,
  createUser,
  PASSWORD,
  pkce,
  signIn,
} from '../auth/support/auth-fixtures';
import { loopback } from '../auth/support/loopback-http';
import { medplumClient, outcomeOf, rejectionOf } from '../../conformance/medplum-sdk/support/medplum-client';
import { databases } from '../support/test-databases';
import { startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One HTTP request from `source` (a fresh connection, so the server sees that address). */
function requestFrom(
  source: string,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: target.pathname + target.search,
        method,
        localAddress: source,
        agent: false,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : {} });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const outcomeText = (body: Record<string, unknown>): string | undefined =>
  (body as { issue?: { details?: { text?: string } }[] }).issue?.[0]?.details?.text;

describe.each(databases())('SPEC §6 ipAccessRule at sign-in on %s', (_engine, kind) => {
  let server: TestServer;
  let db: Database;
  let project: Project;
  let system: Repository;
  let officePolicy: AccessPolicy;
  let email: string;
  let observation: Observation;
  const office = loopback(61, 1);
  const elsewhere = '127.0.0.1';

  function passwordLogin(source: string, challenge: string): Promise<Answer> {
    return requestFrom(
      source,
      'POST',
      `${server.baseUrl}auth/login`,
      { 'content-type': 'application/json' },
      JSON.stringify({ email, password: PASSWORD, codeChallenge: challenge, codeChallengeMethod: 'S256' }),
    );
  }

  function tokenForm(source: string, form: Record<string, string>): Promise<Answer> {
    return requestFrom(
      source,
      'POST',
      `${server.baseUrl}oauth2/token`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(form).toString(),
    );
  }

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { requireAuth: true });
    db = server.db;
    project = await createProject(db, 'Office Clinic');
    system = new Repository(db, systemContext(project.id));
    officePolicy = await system.createResource<AccessPolicy>({
      resourceType: 'AccessPolicy',
      name: 'Office only',
      resource: [{ resourceType: 'Observation' }],
      // The first matching rule decides: the default loopback addresses are blocked, the rest allowed.
      ipAccessRule: [
        { name: 'front desk', value: '127.0.0.1', action: 'block' },
        { name: 'v6 loopback', value: '::1', action: 'block' },
        { name: 'office', value: '*', action: 'allow' },
      ],
    });
    const user = await createUser(db);
    email = user.email as string;
    const doctor = await system.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ family: 'Office' }],
    });
    await system.createResource<ProjectMembership>({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project.id}` },
      user: { reference: `User/${user.id}` },
      profile: { reference: `Practitioner/${doctor.id}` },
      accessPolicy: { reference: `AccessPolicy/${officePolicy.id}` },
    });
    observation = await system.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'weight' },
    });
  });

  afterAll(async () => {
    await server.close();
  });

  test('SPEC §7 auth/login from a blocked address is refused 403 with no code; from an allowed one it signs in', async () => {
    const refused = await passwordLogin(elsewhere, pkce().challenge);
    expect(refused.status).toBe(403);
    expect(outcomeText(refused.body)).toBe('IP address not allowed by your access policy');
    expect(refused.body.code).toBeUndefined();

    const { verifier, challenge } = pkce();
    const accepted = await passwordLogin(office, challenge);
    expect(accepted.status).toBe(200);
    expect(accepted.body.code).toEqual(expect.any(String));
    const token = await tokenForm(office, {
      grant_type: 'authorization_code',
      code: accepted.body.code as string,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    const bearer = { authorization: `Bearer ${token.body.access_token as string}` };

    // The token is still checked on every request: the same token from a blocked address is 403.
    const read = `${server.fhirUrl}Observation/${observation.id}`;
    expect((await requestFrom(office, 'GET', read, bearer)).status).toBe(200);
    const blocked = await requestFrom(elsewhere, 'GET', read, bearer);
    expect(blocked.status).toBe(403);
    expect(outcomeText(blocked.body)).toMatch(/IP address not allowed/);
  });

  test('SPEC §7 the test helper signIn (fetch from the default loopback) cannot get a code either', async () => {
    await expect(signIn(server.baseUrl, email)).rejects.toThrow(/sign-in gave no code: 403/);
  });

  test("SPEC §7 Medplum's MedplumClient.startLogin from a blocked address is refused with the policy's reason", async () => {
    const medplum = await medplumClient(server.baseUrl);
    const refusal = await rejectionOf(
      medplum.startLogin({
        email,
        password: PASSWORD,
        codeChallenge: pkce().challenge,
        codeChallengeMethod: 'S256',
      }),
    );
    expect(outcomeOf(refusal)[0]?.text).toBe('IP address not allowed by your access policy');
  });

  test('SPEC §7 client credentials from a blocked address get no token (invalid_grant); from an allowed one they do', async () => {
    const secret = 'office-client-secret-0123456789';
    const client = await createClient(db, project, { secret });
    const [clientMembership] = await findMembershipsByUser(db, `ClientApplication/${client.id}`);
    await system.updateResource<ProjectMembership>({
      ...clientMembership,
      accessPolicy: { reference: `AccessPolicy/${officePolicy.id}` },
    });
    const form = { grant_type: 'client_credentials', client_id: client.id as string, client_secret: secret };

    const refused = await tokenForm(elsewhere, form);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'invalid_grant',
      error_description: 'IP address not allowed by your access policy',
    });
    const accepted = await tokenForm(office, form);
    expect(accepted.status).toBe(200);
    expect(accepted.body.access_token).toEqual(expect.any(String));
  });
});
