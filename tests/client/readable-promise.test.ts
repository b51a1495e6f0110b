// SPEC §4 "Readable promise states: pending, success, error".
import { ReadablePromise } from '../../src/client/readable-promise';

describe('ReadablePromise (SPEC §4)', () => {
  test('pending → success: read() throws the pending promise, then returns the value', async () => {
    let resolve!: (value: string) => void;
    const promise = new ReadablePromise(new Promise<string>((r) => (resolve = r)));
    expect(promise.getStatus()).toBe('pending');
    expect(promise.isPending()).toBe(true);
    let thrown: unknown;
    try {
      promise.read();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Promise);
    resolve('done');
    await expect(promise).resolves.toBe('done');
    expect(promise.getStatus()).toBe('success');
    expect(promise.isOk()).toBe(true);
    expect(promise.read()).toBe('done');
    expect(Object.prototype.toString.call(promise)).toBe('[object ReadablePromise]');
  });

  test('pending → error: read() throws the error; then/catch/finally see it', async () => {
    const promise = new ReadablePromise<string>(Promise.reject(new Error('Not found')));
    await expect(promise).rejects.toThrow('Not found');
    expect(promise.getStatus()).toBe('error');
    expect(promise.isOk()).toBe(false);
    expect(() => promise.read()).toThrow('Not found');
    await expect(promise.catch((err: unknown) => (err as Error).message)).resolves.toBe('Not found');
    const onFinally = jest.fn();
    await promise.finally(onFinally).catch(() => undefined);
    expect(onFinally).toHaveBeenCalled();
  });

  test('resolve(value) is readable in the same tick', () => {
    const promise = ReadablePromise.resolve({ id: 'p1' });
    expect(promise.getStatus()).toBe('success');
    expect(promise.read()).toEqual({ id: 'p1' });
  });

  test('a rejection nobody awaits is not an unhandled rejection', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      new ReadablePromise(Promise.reject(new Error('ignored')));
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
