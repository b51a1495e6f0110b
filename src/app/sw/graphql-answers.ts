// What the service worker needs to keep a signed-in person's GraphQL answers for offline reading:
// which requests are reads (queries, never mutations or subscriptions), whose they are (the profile in
// the access token), and the cache key, which names the owner so one person's key never matches
// another's answers.
import { isJwt, parseJwtPayload } from '../../fhir/jwt';

/** Where the answers live in Cache Storage; the app deletes it when the signed-in profile changes. */
export const GRAPHQL_ANSWERS_CACHE = 'bloom-graphql-answers';
/** Header added to a stored answer: when it was received (ISO time), shown in the offline banner. */
export const STORED_AT_HEADER = 'x-bloom-stored-at';

/** The operation kinds (query, mutation, subscription, fragment) defined at the top of a document. */
export function operationKinds(document: string): string[] {
  // Strings and comments cannot hold braces that count.
  const text = document.replace(/"""[\s\S]*?"""|"(?:\\.|[^"\\])*"|#[^\n]*/g, '');
  const kinds: string[] = [];
  let depth = 0;
  let atTop = true;
  for (const match of text.matchAll(/[{}]|[A-Za-z_][A-Za-z0-9_]*/g)) {
    const token = match[0];
    if (token === '{') {
      if (depth === 0 && atTop) kinds.push('query'); // the shorthand `{ ... }` is a query
      depth += 1;
      atTop = true;
    } else if (token === '}') {
      depth -= 1;
      atTop = true;
    } else if (depth === 0 && atTop) {
      kinds.push(token);
      atTop = false;
    }
  }
  return kinds;
}

/** A GraphQL request body that only reads: every operation in it is a query. */
export function isReadOnlyGraphqlBody(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const query = (parsed as { query?: unknown } | null)?.query;
  if (typeof query !== 'string') return false;
  const operations = operationKinds(query).filter((kind) => kind !== 'fragment');
  return operations.length > 0 && operations.every((kind) => kind === 'query');
}

/** The profile (else the user) the bearer token was issued for; undefined without a readable JWT. */
export function answerOwner(authorization: string | null): string | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token || !isJwt(token)) return undefined;
  try {
    const payload = parseJwtPayload(token);
    const owner = payload.profile ?? payload.sub;
    return typeof owner === 'string' && owner !== '' ? owner : undefined;
  } catch {
    return undefined;
  }
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A GET URL under the worker's scope naming the owner and the request (the Cache API keys by URL). */
export async function answerCacheKey(
  scope: string,
  graphqlUrl: string,
  owner: string,
  body: string,
): Promise<string> {
  const hash = await sha256Hex(`${graphqlUrl}\n${body}`);
  return new URL(`__graphql-answers/${encodeURIComponent(owner)}/${hash}`, scope).toString();
}
