// Bytes on the wire as Chromium counts them: every response's `encodedDataLength` from the DevTools
// protocol's Network.loadingFinished (headers and body as received, after Content-Encoding), so the
// figure is what the server really sent, not an estimate of what compression could do.
import type { Page } from 'playwright-core';

export interface WireBytes {
  /** Total bytes received for everything the page loaded until `stop`. */
  total(): number;
  /** Bytes received for scripts only. */
  scripts(): number;
  /** Bytes per URL path, largest first (the chunk to blame when a budget is missed). */
  largest(count: number): { path: string; bytes: number }[];
  stop(): Promise<void>;
}

/** Starts counting the page's network bytes; call before navigating, with a fresh context (cold cache). */
export async function countWireBytes(page: Page): Promise<WireBytes> {
  const session = await page.context().newCDPSession(page);
  const urls = new Map<string, string>();
  const bytes = new Map<string, number>();
  const scriptIds = new Set<string>();
  let scriptBytes = 0;
  session.on('Network.requestWillBeSent', (event) => {
    urls.set(event.requestId, new URL(event.request.url).pathname);
    if (event.type === 'Script') scriptIds.add(event.requestId);
  });
  session.on('Network.loadingFinished', (event) => {
    const path = urls.get(event.requestId) ?? event.requestId;
    bytes.set(path, (bytes.get(path) ?? 0) + event.encodedDataLength);
    if (scriptIds.has(event.requestId)) scriptBytes += event.encodedDataLength;
  });
  await session.send('Network.enable');
  // Cold cache: nothing may come from the memory or disk cache of an earlier load.
  await session.send('Network.setCacheDisabled', { cacheDisabled: true });
  return {
    scripts: () => scriptBytes,
    total: () => [...bytes.values()].reduce((sum, size) => sum + size, 0),
    largest: (count) =>
      [...bytes]
        .map(([path, size]) => ({ path, bytes: size }))
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, count),
    stop: () => session.detach().catch(() => undefined),
  };
}
