// One request's bound on PGlite's queue (src/server/request-wait.ts), as a unit: refused only before
// its first write, and once refused never admitted again, even after the queue drained.
import { RequestWait } from '../../src/server/request-wait';
import { RetryAfterError } from '../../src/server/retry-after';

describe('RequestWait', () => {
  it('refuses a read whose waits would pass the bound, then refuses every later statement', () => {
    const wait = new RequestWait(300);
    wait.admit(100, 'SELECT 1');
    wait.waited(250);
    expect(() => wait.admit(100, 'SELECT 2')).toThrow(RetryAfterError);
    // The queue is empty now, but the request already answered 503: its write must not run.
    expect(() => wait.admit(0, 'INSERT INTO resource VALUES (1)')).toThrow(RetryAfterError);
  });

  it('never refuses once the request has begun writing', () => {
    const wait = new RequestWait(300);
    wait.admit(0, 'INSERT INTO resource VALUES (1)');
    wait.waited(1000);
    expect(() => wait.admit(1000, 'SELECT 1')).not.toThrow();
  });

  it('never refuses after the answer was sent', () => {
    const wait = new RequestWait(300);
    wait.end();
    expect(() => wait.admit(1000, 'SELECT 1')).not.toThrow();
  });
});
