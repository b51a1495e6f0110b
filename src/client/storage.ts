// Where a client keeps the stored login of SPEC §3 between page loads: localStorage in a browser,
// memory elsewhere. Every key carries the client's prefix, so clearing removes this client's keys
// and never anybody else's.
import type { Reference } from '@medplum/fhirtypes';

/** The stored login of SPEC §3. */
export interface LoginState {
  accessToken: string;
  refreshToken?: string;
  project?: Reference;
  profile?: Reference;
}

/** The part of the Web Storage API a client needs (localStorage and sessionStorage have it). */
export interface StorageBackend {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ClientStorage {
  /** The backend key a logical key is stored under (storage events report backend keys). */
  backendKey(key: string): string;
  getString(key: string): string | undefined;
  setString(key: string, value: string | undefined): void;
  getObject<T>(key: string): T | undefined;
  setObject<T>(key: string, value: T | undefined): void;
  /** Removes this client's keys only. */
  clear(): void;
}

export const ACTIVE_LOGIN_KEY = 'activeLogin';
export const LOGINS_KEY = 'logins';
export const DEFAULT_STORAGE_PREFIX = '@bloom/';

/** A Map behind the Web Storage interface, for Node and for tests. */
export class MemoryStorage implements StorageBackend {
  private readonly data = new Map<string, string>();

  get length(): number {
    return this.data.size;
  }

  key(index: number): string | null {
    return [...this.data.keys()][index] ?? null;
  }

  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.data.set(key, String(value));
  }

  removeItem(key: string): void {
    this.data.delete(key);
  }
}

export class PrefixedStorage implements ClientStorage {
  constructor(
    private readonly backend: StorageBackend,
    private readonly prefix: string = DEFAULT_STORAGE_PREFIX,
  ) {}

  backendKey(key: string): string {
    return this.prefix + key;
  }

  getString(key: string): string | undefined {
    return this.backend.getItem(this.backendKey(key)) ?? undefined;
  }

  setString(key: string, value: string | undefined): void {
    if (value === undefined) {
      this.backend.removeItem(this.backendKey(key));
    } else {
      this.backend.setItem(this.backendKey(key), value);
    }
  }

  getObject<T>(key: string): T | undefined {
    const text = this.getString(key);
    if (text === undefined) {
      return undefined;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      // Somebody else's value under our key, or a torn write: treat it as absent.
      return undefined;
    }
  }

  setObject<T>(key: string, value: T | undefined): void {
    this.setString(key, value === undefined ? undefined : JSON.stringify(value));
  }

  clear(): void {
    const ours: string[] = [];
    for (let i = 0; i < this.backend.length; i++) {
      const key = this.backend.key(i);
      if (key !== null && key.startsWith(this.prefix)) {
        ours.push(key);
      }
    }
    for (const key of ours) {
      this.backend.removeItem(key);
    }
  }
}

/** localStorage when the page has one (it throws in some privacy modes), else memory. */
export function createDefaultStorage(isBrowser: boolean, prefix = DEFAULT_STORAGE_PREFIX): ClientStorage {
  if (isBrowser) {
    try {
      const local = (globalThis as { localStorage?: StorageBackend }).localStorage;
      if (local) {
        return new PrefixedStorage(local, prefix);
      }
    } catch {
      // fall through to memory
    }
  }
  return new PrefixedStorage(new MemoryStorage(), prefix);
}

/** What another tab did to the active login, judged from a storage event (SPEC §4). */
export type ActiveLoginChange =
  /** Same person, new tokens (another tab refreshed): adopt them, no reload. */
  | { kind: 'tokens'; login: LoginState }
  /** Another person, another project, or signed out: the page must reload. */
  | { kind: 'switched' };

export interface StorageEventLike {
  key: string | null;
  newValue?: string | null;
}

/** The minimal event target the listener needs (window in a browser, any EventTarget in tests). */
export interface StorageEventSource {
  addEventListener(type: 'storage', listener: (event: Event) => void): void;
  removeEventListener(type: 'storage', listener: (event: Event) => void): void;
}

function parseLogin(text: string | null | undefined): LoginState | undefined {
  if (!text) {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<LoginState>;
    return typeof value?.accessToken === 'string' ? (value as LoginState) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Classifies a storage event against the login this tab holds; undefined when the event is not
 * about our active login. A cleared storage (key null) counts as a switch.
 */
export function classifyStorageEvent(
  event: StorageEventLike,
  activeLoginKey: string,
  current: LoginState | undefined,
): ActiveLoginChange | undefined {
  if (event.key !== null && event.key !== activeLoginKey) {
    return undefined;
  }
  const next = event.key === null ? undefined : parseLogin(event.newValue);
  if (
    next &&
    current &&
    next.profile?.reference === current.profile?.reference &&
    next.project?.reference === current.project?.reference
  ) {
    return next.accessToken === current.accessToken ? undefined : { kind: 'tokens', login: next };
  }
  if (!next && !current) {
    return undefined;
  }
  return { kind: 'switched' };
}

/** Listens for other tabs' changes to the active login; returns the function that stops listening. */
export function watchActiveLogin(
  source: StorageEventSource,
  activeLoginKey: string,
  getCurrent: () => LoginState | undefined,
  onChange: (change: ActiveLoginChange) => void,
): () => void {
  const listener = (event: Event): void => {
    const change = classifyStorageEvent(event as unknown as StorageEventLike, activeLoginKey, getCurrent());
    if (change) {
      onChange(change);
    }
  };
  source.addEventListener('storage', listener);
  return () => source.removeEventListener('storage', listener);
}
