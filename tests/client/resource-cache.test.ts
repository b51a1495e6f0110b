// SPEC §9 "Request cache: 60000 ms default in a browser, 0 elsewhere; 1000 entries,
// least-recently-used"; error responses are never cached.
import { ReadablePromise } from '../../src/client/readable-promise';
import { ResourceCache } from '../../src/client/resource-cache';
import { DEFAULT_RESOURCE_CACHE_SIZE } from '../../src/client/settings';

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('ResourceCache (SPEC §9)', () => {
  test('an entry is served until its cache time is over, then gone', () => {
    const time = clock();
    const cache = new ResourceCache({ maxSize: 10, ttl: 60000, now: time.now });
    const entry = ReadablePromise.resolve({ id: 'a' });
    cache.set('u1', entry);
    time.advance(59999);
    expect(cache.get('u1')).toBe(entry);
    time.advance(1);
    expect(cache.get('u1')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test(`LRU at ${DEFAULT_RESOURCE_CACHE_SIZE} entries: the least recently used goes first`, () => {
    const cache = new ResourceCache({ maxSize: DEFAULT_RESOURCE_CACHE_SIZE, ttl: 60000 });
    for (let i = 0; i < DEFAULT_RESOURCE_CACHE_SIZE; i++) {
      cache.set(`u${i}`, ReadablePromise.resolve(i));
    }
    // Reading u0 makes it recent; u1 is now the oldest.
    expect(cache.peek('u0')).toBe(0);
    cache.set('new', ReadablePromise.resolve('new'));
    expect(cache.size).toBe(DEFAULT_RESOURCE_CACHE_SIZE);
    expect(cache.get('u1')).toBeUndefined();
    expect(cache.peek('u0')).toBe(0);
    expect(cache.peek('u2')).toBe(2);
    expect(cache.peek('new')).toBe('new');
  });

  test('a rejected entry leaves the cache; a newer entry under the same key stays', async () => {
    const cache = new ResourceCache({ maxSize: 10, ttl: 60000 });
    const failing = new ReadablePromise<number>(Promise.reject(new Error('HTTP 500')));
    cache.set('u', failing);
    await failing.catch(() => undefined);
    await Promise.resolve();
    expect(cache.get('u')).toBeUndefined();

    let rejectOld!: (err: Error) => void;
    const old = new ReadablePromise<number>(new Promise((_, reject) => (rejectOld = reject)));
    cache.set('v', old);
    const fresh = ReadablePromise.resolve(2);
    cache.set('v', fresh);
    rejectOld(new Error('late failure'));
    await old.catch(() => undefined);
    await Promise.resolve();
    expect(cache.get('v')).toBe(fresh);
  });

  test('peek gives settled successes only', () => {
    const cache = new ResourceCache({ maxSize: 10, ttl: 60000 });
    cache.set('pending', new ReadablePromise(new Promise(() => undefined)));
    expect(cache.peek('pending')).toBeUndefined();
    expect(cache.get('pending')).toBeDefined();
  });

  test('ttl 0 (the default outside a browser) caches nothing', () => {
    const cache = new ResourceCache({ maxSize: 10, ttl: 0 });
    cache.set('u', ReadablePromise.resolve(1));
    expect(cache.enabled).toBe(false);
    expect(cache.get('u')).toBeUndefined();
  });

  test('delete, deleteWhere and clear', () => {
    const cache = new ResourceCache({ maxSize: 10, ttl: 60000 });
    for (const key of ['a/1', 'a/2', 'b/1']) {
      cache.set(key, ReadablePromise.resolve(key));
    }
    cache.delete('a/1');
    expect(cache.get('a/1')).toBeUndefined();
    cache.deleteWhere((key) => key.startsWith('a/'));
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
