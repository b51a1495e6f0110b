// Aborting a request (SPEC §8 'Request aborted'): every way a request can be cancelled (before it
// starts, while in flight, while waiting to retry or poll) rejects with the same error.

export const REQUEST_ABORTED = 'Request aborted';

export function requestAbortedError(cause?: unknown): Error {
  const error = new Error(REQUEST_ABORTED, cause === undefined ? undefined : { cause });
  // The name browsers use, so code that ignores aborts (SPEC §8 selection inputs) recognises it.
  error.name = 'AbortError';
  return error;
}

/** Ours or the platform's (fetch rejects with a DOMException named AbortError, not always an Error here). */
export function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw requestAbortedError(signal.reason);
  }
}

/** Waits `ms`; rejects with 'Request aborted' as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(requestAbortedError(signal.reason));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(requestAbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
