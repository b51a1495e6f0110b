// Registers the app's service worker (dist/app/sw.js, scripts/build-service-worker.mjs) once a person
// is signed in and the page has settled: the landing page never downloads it, and its precache (every
// chunk of the app, for offline use and the next visit) does not compete with the first signed-in
// screen for the network, the server and the device's processor. In Chromium, 8 alternated cold loads
// each, registering at the page's `load` event instead showed the search table's rows about 0.35 s
// later and the lab-result detail about 0.1 s later.
let registering = false;

/** The page must go this long without finishing a download (its screen has its answers). */
export const SETTLE_QUIET_MS = 2_000;
/** A page that keeps downloading (a poll) gets the worker this long after its load at the latest. */
export const SETTLE_MAX_MS = 30_000;
/** Once settled, the registration waits for an idle moment of the main thread, at most this long. */
const IDLE_TIMEOUT_MS = 5_000;

export function registerServiceWorker(): void {
  if (registering || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  registering = true;
  const register = () => {
    // No worker under `vite dev` (nothing builds sw.js there): the app simply stays online-only.
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  const whenIdle = () => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(register, { timeout: IDLE_TIMEOUT_MS });
    else register();
  };
  const afterLoad = () => whenDownloadsQuiet(whenIdle);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

/**
 * Calls `then` once the page has gone `quietMs` without a download finishing (Resource Timing sees
 * every script, image and API answer), or after `maxMs` whatever happens. Without Resource Timing's
 * observer, after `quietMs`.
 */
export function whenDownloadsQuiet(then: () => void, quietMs = SETTLE_QUIET_MS, maxMs = SETTLE_MAX_MS): void {
  let settled = false;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let observer: PerformanceObserver | undefined;
  const settle = () => {
    if (settled) return;
    settled = true;
    clearTimeout(quiet);
    clearTimeout(latest);
    observer?.disconnect();
    then();
  };
  const restartQuiet = () => {
    clearTimeout(quiet);
    quiet = setTimeout(settle, quietMs);
  };
  const latest = setTimeout(settle, maxMs);
  if (
    typeof PerformanceObserver !== 'undefined' &&
    PerformanceObserver.supportedEntryTypes?.includes('resource')
  ) {
    observer = new PerformanceObserver(restartQuiet);
    observer.observe({ type: 'resource' });
  }
  restartQuiet();
}
