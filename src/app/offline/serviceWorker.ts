// Registers the app's service worker (dist/app/sw.js, scripts/build-service-worker.mjs) once a person
// is signed in, after the page has loaded: the landing page never downloads it, and its precache
// downloads do not compete with the first signed-in screen.
let registering = false;

export function registerServiceWorker(): void {
  if (registering || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  registering = true;
  const register = () => {
    // No worker under `vite dev` (nothing builds sw.js there): the app simply stays online-only.
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
