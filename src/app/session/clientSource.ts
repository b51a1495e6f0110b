// The app's one platform client, created on first need: the signed-out landing page never downloads the
// client library. It is created at start-up when a login is stored (SPEC §3 "Stored
// login"), and when a screen asks for it (the sign-in screens, the signed-in screens).
import type { BloomClient } from '../../client';
import { ACTIVE_LOGIN_KEY, DEFAULT_STORAGE_PREFIX } from '../../client/storage';

export interface ClientSource {
  /** The client once created. */
  readonly current: () => BloomClient | undefined;
  /** True while the client library is downloading. */
  readonly loading: () => boolean;
  /** Creates the client (once) and resolves to it. */
  readonly load: () => Promise<BloomClient>;
  /** Calls `listener` when the client is created or its download fails. */
  readonly subscribe: (listener: () => void) => () => void;
}

/** A source around an existing client (tests, tools). */
export function readyClientSource(client: BloomClient): ClientSource {
  const promise = Promise.resolve(client);
  return {
    current: () => client,
    loading: () => false,
    load: () => promise,
    subscribe: () => () => undefined,
  };
}

/** A source that creates its client with `create` when first loaded. */
export function lazyClientSource(create: () => Promise<BloomClient>): ClientSource {
  let client: BloomClient | undefined;
  let promise: Promise<BloomClient> | undefined;
  let pending = false;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  const load = () => {
    if (!promise) {
      pending = true;
      promise = create().then(
        (created) => {
          client = created;
          pending = false;
          changed();
          return created;
        },
        (err: unknown) => {
          // A failed download (offline) may be retried by the next screen that asks.
          promise = undefined;
          pending = false;
          changed();
          throw err;
        },
      );
    }
    return promise;
  };
  return {
    current: () => client,
    loading: () => pending,
    load,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The localStorage key of the app client's active login (the client's default storage prefix). */
export const ACTIVE_LOGIN_STORAGE_KEY = DEFAULT_STORAGE_PREFIX + ACTIVE_LOGIN_KEY;

/** Whether the browser holds a stored login, read without the client library. */
export function hasStoredLogin(): boolean {
  try {
    const stored = globalThis.localStorage?.getItem(ACTIVE_LOGIN_STORAGE_KEY);
    if (!stored) return false;
    const login = JSON.parse(stored) as { accessToken?: unknown } | null;
    return typeof login?.accessToken === 'string';
  } catch {
    return false;
  }
}
