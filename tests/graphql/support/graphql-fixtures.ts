// The demo clinic behind a real server (tokens required, as in `npm start`), the demo accounts
// signed in, and a small client for POST/GET $graphql. Shared by the GraphQL tests.
import { seedDemoClinic } from '../../../src/server/seed';
import { Repository, systemContext } from '../../../src/server/repo';
import { signIn } from '../../server/auth/support/auth-fixtures';
import type { Tokens } from '../../server/auth/support/auth-fixtures';
import type { TestDatabaseKind } from '../../server/support/test-databases';
import { startTestServer } from '../../server/support/test-server';
import type { TestServer } from '../../server/support/test-server';

export const DEMO_PASSWORD = 'bloom-demo';

export interface DemoClinic {
  server: TestServer;
  maria: Tokens;
  aisha: Tokens;
  chen: Tokens;
  admin: Tokens;
  /** 'Patient/…' of Maria and Aisha, 'Practitioner/…' of Dr Chen. */
  mariaRef: string;
  aishaRef: string;
  chenRef: string;
}

export async function startDemoClinic(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
): Promise<DemoClinic> {
  const server = await startTestServer(kind, env, { requireAuth: true });
  await seedDemoClinic(new Repository(server.db, systemContext()), { demoPassword: DEMO_PASSWORD });
  const [maria, aisha, chen, admin] = await Promise.all(
    ['maria', 'aisha', 'dr.chen', 'admin'].map((name) =>
      signIn(server.baseUrl, `${name}@bloom.example`, DEMO_PASSWORD),
    ),
  );
  return {
    server,
    maria,
    aisha,
    chen,
    admin,
    mariaRef: maria.profile?.reference as string,
    aishaRef: aisha.profile?.reference as string,
    chenRef: chen.profile?.reference as string,
  };
}

export interface GraphQLResponseBody<T> {
  data?: T;
  errors?: {
    message: string;
    path?: (string | number)[];
    extensions?: { outcome?: unknown; status?: number };
  }[];
  /** Present when the answer is an OperationOutcome (a request refused before it ran). */
  resourceType?: string;
  issue?: { severity: string; code: string; details?: { text?: string }; expression?: string[] }[];
}

export interface GraphQLHttpResponse<T> {
  status: number;
  contentType: string | null;
  body: GraphQLResponseBody<T>;
}

export async function postGraphQL<T = Record<string, unknown>>(
  server: TestServer,
  tokens: Tokens | undefined,
  query: string,
  variables?: Record<string, unknown>,
  operationName?: string,
): Promise<GraphQLHttpResponse<T>> {
  return sendGraphQL<T>(server, tokens, JSON.stringify({ query, variables, operationName }));
}

/** A raw body, for malformed requests. */
export async function sendGraphQL<T = Record<string, unknown>>(
  server: TestServer,
  tokens: Tokens | undefined,
  body: string,
  contentType = 'application/json',
): Promise<GraphQLHttpResponse<T>> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (tokens) {
    headers.authorization = `Bearer ${tokens.access_token}`;
  }
  const response = await fetch(`${server.fhirUrl}$graphql`, { method: 'POST', headers, body });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (text ? JSON.parse(text) : {}) as GraphQLResponseBody<T>,
  };
}

export async function getGraphQL<T = Record<string, unknown>>(
  server: TestServer,
  tokens: Tokens,
  params: Record<string, string>,
): Promise<GraphQLHttpResponse<T>> {
  const response = await fetch(`${server.fhirUrl}$graphql?${new URLSearchParams(params)}`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    body: (text ? JSON.parse(text) : {}) as GraphQLResponseBody<T>,
  };
}

export function idOf(reference: string): string {
  return reference.split('/')[1];
}

/** The texts of an OperationOutcome's issues. */
export function issueTexts(body: GraphQLResponseBody<unknown>): string[] {
  return (body.issue ?? []).map((issue) => issue.details?.text ?? '');
}
