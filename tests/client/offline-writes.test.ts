// The queue of writes made without a network: each keeps the Idempotency-Key it was given
// at entry, so every attempt is the same write to the server; a network failure leaves it waiting and
// stops the flush, a server's refusal fails it with the reason; only the signed-in owner's writes are
// listed and sent.
import type { Observation, Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError, badRequest } from '../../src/fhir/outcomes';
import { MemoryStorage } from '../../src/client/storage';
import {
  OFFLINE_WRITES_STORAGE_KEY,
  OfflineWriteQueue,
  type OfflineWriteTarget,
} from '../../src/client/offline-writes';

/** What reached the "server": each attempt with its key; `fail` decides the attempt's fate. */
class RecordingTarget implements OfflineWriteTarget {
  readonly attempts: { key?: string; resource: Resource }[] = [];
  fail: (attempt: number) => Error | undefined = () => undefined;

  async createResource<T extends Resource>(resource: T, options?: { idempotencyKey?: string }): Promise<T> {
    this.attempts.push({ key: options?.idempotencyKey, resource });
    const error = this.fail(this.attempts.length);
    if (error) throw error;
    return { ...resource, id: `id-${this.attempts.length}` };
  }
}

const weight = (value: number): Observation => ({
  resourceType: 'Observation',
  status: 'preliminary',
  code: { text: 'Weight' },
  valueQuantity: { value, unit: 'lb' },
});

describe('OfflineWriteQueue', () => {
  let backend: MemoryStorage;
  let target: RecordingTarget;
  let owner: string | undefined;
  let queue: OfflineWriteQueue;

  beforeEach(() => {
    backend = new MemoryStorage();
    target = new RecordingTarget();
    owner = 'Patient/maria';
    queue = new OfflineWriteQueue(target, backend, () => owner);
  });

  test('a write is kept with its key and listed as waiting until sent, then removed', async () => {
    const write = queue.enqueue(weight(161), 'Weight 161 lb', 'vitals/weight', 'key-1');
    expect(queue.list()).toEqual([expect.objectContaining({ key: 'key-1', state: 'waiting', owner })]);
    expect(JSON.parse(backend.getItem(OFFLINE_WRITES_STORAGE_KEY) ?? '[]')).toHaveLength(1);
    await expect(queue.flush()).resolves.toBe(1);
    expect(target.attempts).toEqual([{ key: write.key, resource: weight(161) }]);
    expect(queue.list()).toEqual([]);
    expect(backend.getItem(OFFLINE_WRITES_STORAGE_KEY)).toBeNull();
  });

  test('a network failure keeps it waiting and stops the flush; the next flush sends it with the same key', async () => {
    queue.enqueue(weight(161), 'first', 'vitals/weight', 'key-a');
    queue.enqueue(weight(162), 'second', 'vitals/weight', 'key-b');
    target.fail = (attempt) => (attempt === 1 ? new TypeError('Failed to fetch') : undefined);
    await expect(queue.flush()).resolves.toBe(0);
    // The second was not tried after the network failed.
    expect(target.attempts.map((a) => a.key)).toEqual(['key-a']);
    expect(queue.list().map((w) => [w.key, w.state])).toEqual([
      ['key-a', 'waiting'],
      ['key-b', 'waiting'],
    ]);
    await expect(queue.flush()).resolves.toBe(2);
    expect(target.attempts.map((a) => a.key)).toEqual(['key-a', 'key-a', 'key-b']);
    expect(queue.list()).toEqual([]);
  });

  test('concurrent flushes (an online event while one runs) send each write once', async () => {
    queue.enqueue(weight(161), 'first', 'vitals/weight', 'key-a');
    const [one, two] = await Promise.all([queue.flush(), queue.flush()]);
    expect(one + two).toBeGreaterThanOrEqual(1);
    expect(target.attempts).toHaveLength(1);
  });

  test("a server's refusal fails the write with its reason, the rest still go; a failed write can be dismissed", async () => {
    queue.enqueue(weight(-5), 'bad', 'vitals/weight', 'key-bad');
    queue.enqueue(weight(160), 'good', 'vitals/weight', 'key-good');
    target.fail = (attempt) =>
      attempt === 1 ? new OperationOutcomeError(badRequest('Invalid value')) : undefined;
    await expect(queue.flush()).resolves.toBe(1);
    expect(queue.list()).toEqual([
      expect.objectContaining({ key: 'key-bad', state: 'failed', error: 'Invalid value' }),
    ]);
    // Never sent again.
    await queue.flush();
    expect(target.attempts).toHaveLength(2);
    queue.dismiss('key-bad');
    expect(queue.list()).toEqual([]);
  });

  test('a write left "sending" by a closed page is sent again with its key', async () => {
    const write = queue.enqueue(weight(161), 'first', 'vitals/weight', 'key-a');
    backend.setItem(OFFLINE_WRITES_STORAGE_KEY, JSON.stringify([{ ...write, state: 'sending' }]));
    await expect(queue.flush()).resolves.toBe(1);
    expect(target.attempts.map((a) => a.key)).toEqual(['key-a']);
  });

  test("another person's writes are neither listed nor sent; nobody signed in cannot queue", async () => {
    queue.enqueue(weight(161), 'Maria', 'vitals/weight', 'key-maria');
    owner = 'Practitioner/chen';
    expect(queue.list()).toEqual([]);
    await expect(queue.flush()).resolves.toBe(0);
    expect(target.attempts).toEqual([]);
    owner = undefined;
    expect(() => queue.enqueue(weight(1), 'x', 'vitals/weight')).toThrow(
      'Sign in to save this on the device',
    );
  });

  test('each write gets a fresh key by default; list() keeps its identity until something changes', () => {
    const a = queue.enqueue(weight(1), 'a', 'vitals/weight');
    const b = queue.enqueue(weight(2), 'b', 'vitals/weight');
    expect(a.key).not.toBe(b.key);
    const first = queue.list();
    expect(queue.list()).toBe(first);
    queue.dismiss(a.key);
    expect(queue.list()).not.toBe(first);
  });

  test('unreadable stored data is treated as an empty queue', () => {
    backend.setItem(OFFLINE_WRITES_STORAGE_KEY, '{not json');
    expect(queue.list()).toEqual([]);
  });
});
