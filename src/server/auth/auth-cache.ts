// Who a bearer token stands for, kept per token so a request does not re-read its Login,
// membership, User, Project and AccessPolicies (five statements) when none of them changed.
// It lives beside the resource cache and follows its invalidations: any write of a resource the
// auth state is built from (by this instance, or by another one as heard through the database's
// notifications on PostgreSQL) drops every entry, and so does the resource cache being dropped.
// Where there is no resource cache (PostgreSQL without LISTEN) there is no auth cache either.
// The token itself was verified when its entry was stored; its expiry is checked on every use.
import type { Database } from '../db';
import type { ResourceCache } from '../repo/resource-cache';
import { resourceCacheFor } from '../repo/resource-cache';

/** The resource types an AuthState is read from (JsonWebKey: a retired signing key ends its tokens). */
const AUTH_TYPES = new Set([
  'Login',
  'ProjectMembership',
  'User',
  'Project',
  'AccessPolicy',
  'ClientApplication',
  'JsonWebKey',
]);

const MAX_ENTRIES = 5_000;

interface Entry<T> {
  value: T;
  /** The token's exp (ms since the epoch). */
  expiresAt: number;
}

export class AuthCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;

  get(token: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) {
      return undefined;
    }
    if (entry.expiresAt <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.value;
  }

  /** The generation to pass to `set`: a state built while an auth resource changed is not stored. */
  startRead(): number {
    return this.generation;
  }

  set(token: string, value: T, expiresAt: number, readGeneration: number): void {
    if (readGeneration !== this.generation) {
      return;
    }
    this.entries.delete(token);
    this.entries.set(token, { value, expiresAt });
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
      }
    }
  }

  /** A resource changed: `key` 'Type/id', or undefined for "anything may have". */
  invalidated(key: string | undefined): void {
    if (key !== undefined && !AUTH_TYPES.has(key.slice(0, key.indexOf('/')))) {
      return;
    }
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const authCaches = new WeakMap<ResourceCache, AuthCache<unknown>>();

/** The auth cache that goes with `db`'s resource cache, or undefined when there is none. */
export function authCacheFor<T>(db: Database): AuthCache<T> | undefined {
  const resources = resourceCacheFor(db);
  if (!resources) {
    return undefined;
  }
  let cache = authCaches.get(resources);
  if (!cache) {
    const created = new AuthCache<unknown>();
    resources.onInvalidate((key) => created.invalidated(key));
    authCaches.set(resources, created);
    cache = created;
  }
  return cache as AuthCache<T>;
}
