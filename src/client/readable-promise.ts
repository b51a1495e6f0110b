// A promise whose state can be read synchronously (SPEC §4 "Readable promise states: pending,
// success, error"), so a screen can render a cached value in the same tick, or hand the pending
// promise to React Suspense. Like @medplum/core's ReadablePromise.
//
// It wraps the real promise and always observes it, so a rejection nobody awaits never surfaces as
// an unhandled rejection (a failed auto-batch settles every caller, quietly).

export type ReadableStatus = 'pending' | 'success' | 'error';

export class ReadablePromise<T> implements Promise<T> {
  readonly [Symbol.toStringTag] = 'ReadablePromise';
  private readonly suspender: Promise<T>;
  private status: ReadableStatus = 'pending';
  private value: T | undefined;
  private error: unknown;

  constructor(source: PromiseLike<T>) {
    this.suspender = Promise.resolve(source).then(
      (value) => {
        this.status = 'success';
        this.value = value;
        return value;
      },
      (err: unknown) => {
        this.status = 'error';
        this.error = err;
        throw err;
      },
    );
    // Observed here; callers still see the rejection through then/catch.
    this.suspender.catch(() => undefined);
  }

  /** Already settled with `value` (a cache entry made from a resource in hand). */
  static resolve<T>(value: T): ReadablePromise<T> {
    const promise = new ReadablePromise<T>(Promise.resolve(value));
    promise.status = 'success';
    promise.value = value;
    return promise;
  }

  getStatus(): ReadableStatus {
    return this.status;
  }

  isPending(): boolean {
    return this.status === 'pending';
  }

  isOk(): boolean {
    return this.status === 'success';
  }

  /**
   * The value when settled with success; throws the error when it failed, and throws the pending
   * promise itself while pending (the Suspense protocol).
   */
  read(): T {
    switch (this.status) {
      case 'success':
        return this.value as T;
      case 'error':
        throw this.error;
      default:
        throw this.suspender;
    }
  }

  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.suspender.then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.suspender.catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.suspender.finally(onfinally);
  }
}
