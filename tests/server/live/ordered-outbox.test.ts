// Unit: a socket's messages leave in order though an event may wait for its attachment URLs to be
// signed (SPEC §7 live updates, §3 Attachment): nothing overtakes a message not yet ready.
import { OrderedOutbox } from '../../../src/server/live/ordered-outbox';

function deferred(): { promise: Promise<string>; resolve: (text: string) => void; reject: () => void } {
  let resolve: (text: string) => void = () => undefined;
  let reject: () => void = () => undefined;
  const promise = new Promise<string>((yes, no) => {
    resolve = yes;
    reject = () => no(new Error('signing failed'));
  });
  return { promise, resolve, reject };
}

describe('live OrderedOutbox', () => {
  test('a ready message with nothing waiting is written at once', () => {
    const written: string[] = [];
    const outbox = new OrderedOutbox((text) => written.push(text));
    outbox.push('handshake');
    outbox.push('heartbeat');
    expect(written).toEqual(['handshake', 'heartbeat']);
  });

  test('messages after one not yet ready wait for it, then leave in the order pushed', async () => {
    const written: string[] = [];
    const outbox = new OrderedOutbox((text) => written.push(text));
    const first = deferred();
    const second = deferred();
    outbox.push('handshake');
    outbox.push(first.promise);
    outbox.push(second.promise);
    outbox.push('heartbeat');
    second.resolve('event 2'); // signed before the first: still sent after it
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(['handshake']);
    first.resolve('event 1');
    await outbox.drained;
    expect(written).toEqual(['handshake', 'event 1', 'event 2', 'heartbeat']);
    outbox.push('event 3'); // nothing waits any more: at once
    expect(written.at(-1)).toBe('event 3');
  });

  test('a message that fails is dropped and does not hold back the ones after it', async () => {
    const written: string[] = [];
    const outbox = new OrderedOutbox((text) => written.push(text));
    const failing = deferred();
    outbox.push(failing.promise);
    outbox.push('heartbeat');
    failing.reject();
    await outbox.drained;
    expect(written).toEqual(['heartbeat']);
  });
});
