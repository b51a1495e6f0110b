// The client's response cache (SPEC §9 "Request cache: 60000 ms default in a browser, 0 elsewhere;
// 1000 entries, least-recently-used"): readable promises keyed by absolute URL, each kept for the
// cache time from when it was requested. A promise that rejects leaves the cache at once, so an
// error response is never served from it.
import { ReadablePromise } from './readable-promise';

interface CacheEntry {
  promise: ReadablePromise<unknown>;
  expires: number;
}

export interface ResourceCacheOptions {
  /** Entries kept at most; the least recently used goes first. */
  maxSize: number;
  /** How long an entry is served, in ms; 0 turns the cache off. */
  ttl: number;
  now?: () => number;
}

export class ResourceCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly maxSize: number;
  private readonly ttl: number;
  private readonly now: () => number;

  constructor(options: ResourceCacheOptions) {
    this.maxSize = options.maxSize;
    this.ttl = options.ttl;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.ttl > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The live entry for `key`, which becomes the most recently used; undefined when absent or expired. */
  get<T>(key: string): ReadablePromise<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      return undefined;
    }
    this.entries.delete(key);
    if (entry.expires <= this.now()) {
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.promise as ReadablePromise<T>;
  }

  /** The value of a successfully settled live entry, without waiting (for synchronous reads). */
  peek<T>(key: string): T | undefined {
    const promise = this.get<T>(key);
    return promise?.isOk() ? promise.read() : undefined;
  }

  set<T>(key: string, promise: ReadablePromise<T>): void {
    if (!this.enabled) {
      return;
    }
    this.entries.delete(key);
    this.entries.set(key, { promise, expires: this.now() + this.ttl });
    while (this.entries.size > this.maxSize) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    promise.then(undefined, () => {
      // Only this entry: a newer request for the same key may have replaced it meanwhile.
      if (this.entries.get(key)?.promise === promise) {
        this.entries.delete(key);
      }
    });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Removes every entry whose key matches. */
  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) {
      if (matches(key)) {
        this.entries.delete(key);
      }
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
