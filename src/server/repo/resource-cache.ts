// An in-process cache of current resource versions, for the embedded engine only. PGlite's data
// directory belongs to one process, so this process sees every write and the cache stays exact;
// with PostgreSQL several server instances share the data, so there is no cache (reads go to SQL).
//
// Correctness rests on two facts: every write goes through the Repository, which invalidates the
// key as it writes; and PGlite runs one transaction or query at a time, so no read outside a
// transaction can observe a write before its commit. Reads inside a transaction never use the cache.
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

/** The text form of a resource read from the database. */
export function toResourceJson(resource: Resource): ResourceJson {
  return {
    json: JSON.stringify(resource),
    versionId: resource.meta?.versionId,
    lastUpdated: resource.meta?.lastUpdated,
    lastModified: resource.meta?.lastUpdated ? new Date(resource.meta.lastUpdated).toUTCString() : undefined,
    project: resource.meta?.project,
    compartments: (resource.meta?.compartment ?? [])
      .map((ref) => ref.reference)
      .filter((ref): ref is string => !!ref),
  };
}

export class ResourceCache {
  /** Serialized JSON, so callers always get their own copy. Map order is least recently used first. */
  private readonly entries = new Map<string, Readonly<ResourceJson>>();
  /** Bumped by every invalidation: a read that started before a write must not store what it read. */
  private generation = 0;

  get<T extends Resource>(key: string): T | undefined {
    const entry = this.getJson(key);
    return entry === undefined ? undefined : (JSON.parse(entry.json) as T);
  }

  /** The cached text itself (immutable), for a read that sends it without parsing it. */
  getJson(key: string): Readonly<ResourceJson> | undefined {
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
    if (readGeneration !== this.generation) {
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
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<Database, ResourceCache>();

/** The cache shared by every Repository over `db`, or undefined when the engine is shared by processes. */
export function resourceCacheFor(db: Database): ResourceCache | undefined {
  if (db.engine !== 'pglite') {
    return undefined;
  }
  let cache = caches.get(db);
  if (!cache) {
    cache = new ResourceCache();
    caches.set(db, cache);
  }
  return cache;
}
