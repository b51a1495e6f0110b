// React.lazy keeps a failed import for good: a screen whose code once failed to download (a dropped
// connection) would fail again on every visit until a reload. This lazy can start over, but only when
// the error panel says so (retryFailedLoads on 'Try again' or on a new location): retrying by itself
// while offline would download in a loop.
import { lazy, type ComponentType } from 'react';

const failedLoads = new Set<() => void>();

/** The lazies whose load failed start a fresh download on their next render. */
export function retryFailedLoads(): void {
  const resets = [...failedLoads];
  failedLoads.clear();
  for (const reset of resets) reset();
}

/** As React.lazy (same loader, same component type), but a failed load can be tried again. */
export function retryableLazy<T extends ComponentType<never>>(load: () => Promise<{ default: T }>): T {
  const fresh = () =>
    lazy(() =>
      load().then(
        // The wrapper only forwards props: whatever props T takes reach it unchanged.
        (module) => ({ default: module.default as unknown as ComponentType<object> }),
        (error: unknown) => {
          failedLoads.add(() => {
            current = fresh();
          });
          throw error;
        },
      ),
    );
  let current = fresh();
  function RetryableLazy(props: object) {
    const Current = current;
    return <Current {...props} />;
  }
  return RetryableLazy as unknown as T;
}
