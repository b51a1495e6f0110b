// When the service worker's precache may start: after the page has gone SETTLE_QUIET_MS without a
// download finishing (each Resource Timing entry restarts the wait), and never later than
// SETTLE_MAX_MS on a page that keeps downloading; without Resource Timing's observer, after the quiet
// time alone.
import { SETTLE_MAX_MS, SETTLE_QUIET_MS, whenDownloadsQuiet } from '../../../src/app/offline/serviceWorker';

/** Resource Timing's observer as the page has it: the test reports a finished download. */
class FakeResourceObserver {
  static readonly supportedEntryTypes = ['resource'];
  static instances: FakeResourceObserver[] = [];
  observed: string | undefined;
  disconnected = false;
  constructor(private readonly callback: () => void) {
    FakeResourceObserver.instances.push(this);
  }
  observe(options: { type: string }): void {
    this.observed = options.type;
  }
  disconnect(): void {
    this.disconnected = true;
  }
  downloadFinished(): void {
    if (!this.disconnected) this.callback();
  }
}

const realObserver = globalThis.PerformanceObserver;

beforeEach(() => {
  jest.useFakeTimers();
  FakeResourceObserver.instances = [];
  globalThis.PerformanceObserver = FakeResourceObserver as unknown as typeof PerformanceObserver;
});

afterEach(() => {
  jest.useRealTimers();
  globalThis.PerformanceObserver = realObserver;
});

test('a page that goes quiet: settled SETTLE_QUIET_MS after its last download, not before', () => {
  const then = jest.fn();
  whenDownloadsQuiet(then);
  const [observer] = FakeResourceObserver.instances;
  expect(observer.observed).toBe('resource');
  jest.advanceTimersByTime(SETTLE_QUIET_MS - 100);
  observer.downloadFinished(); // the screen's answer arrives: the wait starts again
  jest.advanceTimersByTime(SETTLE_QUIET_MS - 100);
  expect(then).not.toHaveBeenCalled();
  jest.advanceTimersByTime(100);
  expect(then).toHaveBeenCalledTimes(1);
  expect(observer.disconnected).toBe(true);
});

test('a page that never goes quiet: settled at SETTLE_MAX_MS, once', () => {
  const then = jest.fn();
  whenDownloadsQuiet(then);
  const [observer] = FakeResourceObserver.instances;
  for (let elapsed = 0; elapsed < SETTLE_MAX_MS - 500; elapsed += 500) {
    jest.advanceTimersByTime(500);
    observer.downloadFinished();
  }
  expect(then).not.toHaveBeenCalled();
  jest.advanceTimersByTime(500);
  expect(then).toHaveBeenCalledTimes(1);
  jest.advanceTimersByTime(SETTLE_MAX_MS);
  expect(then).toHaveBeenCalledTimes(1);
});

test('no Resource Timing observer: settled after the quiet time alone', () => {
  globalThis.PerformanceObserver = undefined as unknown as typeof PerformanceObserver;
  const then = jest.fn();
  whenDownloadsQuiet(then);
  jest.advanceTimersByTime(SETTLE_QUIET_MS - 1);
  expect(then).not.toHaveBeenCalled();
  jest.advanceTimersByTime(1);
  expect(then).toHaveBeenCalledTimes(1);
});
