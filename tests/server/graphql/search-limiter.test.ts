// The per-document search cap (SPEC §7): limitConcurrency runs at most `max` calls at once, starts
// the waiting ones in the order they came, and frees a slot when a call fails as when it succeeds.
import { limitConcurrency } from '../../../src/server/graphql/search-limiter';

/** A call that finishes when the test says so, recording how many ran together. */
function gatedCalls() {
  let inFlight = 0;
  let most = 0;
  const started: number[] = [];
  const gates = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  const run = (n: number) =>
    new Promise<number>((resolve, reject) => {
      inFlight++;
      most = Math.max(most, inFlight);
      started.push(n);
      gates.set(n, {
        resolve: () => {
          inFlight--;
          resolve(n);
        },
        reject: (err) => {
          inFlight--;
          reject(err);
        },
      });
    });
  return { run, started, gates, most: () => most };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('limitConcurrency', () => {
  it('runs at most max calls at once and starts the waiting ones in order', async () => {
    const calls = gatedCalls();
    const limited = limitConcurrency(calls.run, 2);
    const results = Promise.all([1, 2, 3, 4, 5].map((n) => limited(n)));
    await tick();
    expect(calls.started).toEqual([1, 2]);
    calls.gates.get(2)?.resolve();
    await tick();
    expect(calls.started).toEqual([1, 2, 3]);
    for (const n of [1, 3, 4, 5]) {
      await tick();
      calls.gates.get(n)?.resolve();
    }
    expect(await results).toEqual([1, 2, 3, 4, 5]);
    expect(calls.most()).toBe(2);
  });

  it('a failed call frees its slot and its caller gets the error', async () => {
    const calls = gatedCalls();
    const limited = limitConcurrency(calls.run, 1);
    const first = limited(1);
    const second = limited(2);
    await tick();
    calls.gates.get(1)?.reject(new Error('search failed'));
    await expect(first).rejects.toThrow('search failed');
    await tick();
    expect(calls.started).toEqual([1, 2]);
    calls.gates.get(2)?.resolve();
    expect(await second).toBe(2);
  });

  it('refuses a limit below 1', () => {
    expect(() => limitConcurrency(async () => 1, 0)).toThrow(RangeError);
  });
});
