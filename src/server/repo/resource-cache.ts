// An in-process cache of current resource versions. PGlite's data directory belongs to one process,
// so this process sees every write and the cache stays exact. With PostgreSQL several server
// instances share the data: a server shares its cache (shared-cache.ts) only while it hears every
// committed write of every instance through the database's notifications, and drops it otherwise.
//
// Correctness rests on: every write goes through the Repository, which invalidates the key as it
// writes (and, on PostgreSQL, again when the commit's notification arrives); PGlite runs one
// transaction or query at a time; a read that started before an invalidation never stores what it
// read. Reads inside a transaction never use the cache.
import type { Resource } from '@medplum/fhirtypes';
import type { Database } from '../db';

const MAX_ENTRIES = 10_000;

/** A stored version as JSON text, ready to send as is, with what its HTTP headers need. */
export interface ResourceJson {
  json: string;
  versionId: string | undefined;
  lastUpdated: string | undefined;
  /** lastUpdated as an HTTP date (the Last-Modified header), formatted once per cached version. */
  lastModified: string | undefined;
  /** meta.project and meta.compartment, so a cached read is access-checked without parsing. */
  project: string | undefined;
  compartments: readonly string[];
}

/**
 * The text form of a resource read from the database. `row` gives the stored project and
 * compartments (access control's facts) when they come from the row rather than the content.
 */
export function toResourceJson(
  resource: Resource,
  row?: { project: string | null; compartments: readonly string[] | null },
): ResourceJson {
  const fromMeta = {
    json: JSON.stringify(resource),
    versionId: resource.meta?.versionId,
    lastUpdated: resource.meta?.lastUpdated,
    lastModified: resource.meta?.lastUpdated ? new Date(resource.meta.lastUpdated).toUTCString() : undefined,
    project: resource.meta?.project,
    compartments: (resource.meta?.compartment ?? [])
      .map((ref) => ref.reference)
      .filter((ref): ref is string => !!ref),
  };
  if (!row) {
    return fromMeta;
  }
  return { ...fromMeta, project: row.project ?? undefined, compartments: row.compartments ?? [] };
}

/** Called with the key of each invalidated entry, or undefined when everything was dropped. */
export type InvalidationListener = (key: string | undefined) => void;

export class ResourceCache {
  /** Serialized JSON, so callers always get their own copy. Map order is least recently used first. */
  private readonly entries = new Map<string, Readonly<ResourceJson>>();
  /** Bumped by every invalidation: a read that started before a write must not store what it read. */
  private generation = 0;
  private readonly listeners = new Set<InvalidationListener>();

  get<T extends Resource>(key: string): T | undefined {
    const entry = this.getJson(key);
    return entry === undefined ? undefined : (JSON.parse(entry.json) as T);
  }

  /** The cached text itself (immutable), for a read that sends it without parsing it. */
  getJson(key: string): Readonly<ResourceJson> | undefined {
    if (this.closed) {
      return undefined;
    }
    const entry = this.entries.get(key);
    if (entry === undefined) {
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** The generation to pass to `set` after reading from the database. */
  startRead(): number {
    return this.generation;
  }

  set(key: string, resource: Resource, readGeneration: number): void {
    this.setJson(key, toResourceJson(resource), readGeneration);
  }

  setJson(key: string, entry: ResourceJson, readGeneration: number): void {
    if (readGeneration !== this.generation || this.closed) {
      return;
    }
    this.entries.set(key, Object.freeze(entry));
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
      }
    }
  }

  invalidate(key: string): void {
    this.generation++;
    this.entries.delete(key);
    for (const listener of this.listeners) {
      listener(key);
    }
  }

  /** Set by close: a cache taken out of service neither answers nor stores. */
  private closed = false;

  /** Drops every entry and stores none from now on (notifications of other writes may be lost). */
  close(): void {
    this.closed = true;
    this.clear();
  }

  /** Drops every entry. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    for (const listener of this.listeners) {
      listener(undefined);
    }
  }

  /** Caches derived from resources (auth state) follow this cache's invalidations. */
  onInvalidate(listener: InvalidationListener): void {
    this.listeners.add(listener);
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<Database, ResourceCache>();

/**
 * The cache shared by every Repository over `db`: always on PGlite; on PostgreSQL only while
 * shareResourceCache (shared-cache.ts) hears every write, else undefined (reads go to SQL).
 */
export function resourceCacheFor(db: Database): ResourceCache | undefined {
  if (db.engine !== 'pglite') {
    return caches.get(db);
  }
  let cache = caches.get(db);
  if (!cache) {
    cache = new ResourceCache();
    caches.set(db, cache);
  }
  return cache;
}

/** shared-cache.ts: puts a PostgreSQL database's cache in place, or takes it away. */
export function setSharedResourceCache(db: Database, cache: ResourceCache | undefined): void {
  if (cache) {
    caches.set(db, cache);
  } else {
    caches.delete(db);
  }
}
