// Medplum's own MedplumClient (@medplum/core 5.2.13, unchanged) pointed at a Bloom test server, with
// what Node 20 lacks and the SDK expects of a browser (TOOLCHAIN.md "Medplum's own packages as
// test referees").
import type { ClientStorage, MedplumClient } from '@medplum/core';
import WebSocket from 'ws';
import type { Tokens } from '../../../server/auth/support/auth-fixtures';

// @medplum/core reads the global WebSocket when it loads and when fhircastConnect opens a socket.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

const storages = new WeakMap<MedplumClient, ClientStorage>();

/** A client of its own (memory storage), fetching for real and caching nothing. */
export async function medplumClient(baseUrl: string): Promise<MedplumClient> {
  const core = await import('@medplum/core');
  const storage = new core.ClientStorage(new core.MemoryStorage());
  const client = new core.MedplumClient({
    baseUrl,
    fetch: globalThis.fetch.bind(globalThis),
    cacheTime: 0,
    storage,
  });
  storages.set(client, storage);
  return client;
}

/**
 * Leaves the PKCE verifier where MedplumClient.startPkce would have (processCode sends it), for a
 * sign-in whose S256 challenge the test made itself.
 */
export function keepCodeVerifier(client: MedplumClient, verifier: string): void {
  storages.get(client)?.setString('codeVerifier', verifier);
}

/**
 * Runs `call` with `window.btoa`, which MedplumClient.startPkce uses to encode its S256 challenge:
 * without it, in Node, the SDK falls back to PKCE 'plain', which a browser never sends and Bloom
 * refuses (SPEC: code challenge method S256). startNewUser always makes its own challenge.
 */
export async function withBrowserBase64<T>(call: () => Promise<T>): Promise<T> {
  const scope = globalThis as { window?: unknown };
  const previous = scope.window;
  scope.window = { btoa: globalThis.btoa.bind(globalThis) };
  try {
    return await call();
  } finally {
    if (previous === undefined) {
      delete scope.window;
    } else {
      scope.window = previous;
    }
  }
}

/** The issues' texts of an OperationOutcomeError (or any error carrying an outcome). */
export function outcomeOf(err: unknown): { text?: string; expression?: string[]; code?: string }[] {
  const outcome = (
    err as { outcome?: { issue?: { details?: { text?: string }; expression?: string[]; code?: string }[] } }
  ).outcome;
  return (outcome?.issue ?? []).map((issue) => ({
    text: issue.details?.text,
    expression: issue.expression,
    code: issue.code,
  }));
}

/** The rejection of `promise` (failing the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to be refused');
}

/**
 * A client signed in with `tokens` as an app is after its code exchange (setActiveLogin: the SDK
 * reads auth/me and knows its profile, which subscribeToCriteria and createComment need).
 */
export async function signedInClient(baseUrl: string, tokens: Tokens): Promise<MedplumClient> {
  const client = await medplumClient(baseUrl);
  await client.setActiveLogin({
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token as string,
    project: tokens.project as { reference: string },
    profile: tokens.profile as { reference: string },
  });
  return client;
}
