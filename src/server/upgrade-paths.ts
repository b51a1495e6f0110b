// The server's one HTTP upgrade listener: live updates, graphql-ws, FHIRcast
// and agents each add their WebSocket path here, in any order, and the listener hands an upgrade to
// the path's handler; an upgrade no handler serves is answered 404. Before, each plugin wrapped the
// listeners registered before it, so the order of registration in app.ts mattered.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** The path of an upgrade request: no query, no trailing slashes ('' stays '/'). */
export function upgradePath(request: IncomingMessage): string {
  return (request.url ?? '').split('?')[0].replace(/\/+$/, '') || '/';
}

export class UpgradePaths {
  private readonly exact = new Map<string, UpgradeHandler>();
  /** Longest first, so /ws/a/b/ is tried before /ws/a/. */
  private prefixes: [string, UpgradeHandler][] = [];

  /** Serves upgrades to exactly `path`; returns the function that stops serving it. */
  add(path: string, handler: UpgradeHandler): () => void {
    const key = path.replace(/\/+$/, '') || '/';
    if (this.exact.has(key)) throw new Error(`Upgrades to ${key} are already served`);
    this.exact.set(key, handler);
    return () => {
      if (this.exact.get(key) === handler) this.exact.delete(key);
    };
  }

  /** Serves upgrades to every path below `prefix` (which ends with '/'); returns its removal. */
  addPrefix(prefix: string, handler: UpgradeHandler): () => void {
    if (!prefix.endsWith('/')) throw new Error(`An upgrade prefix ends with '/': ${prefix}`);
    if (this.prefixes.some(([known]) => known === prefix)) {
      throw new Error(`Upgrades below ${prefix} are already served`);
    }
    this.prefixes = [...this.prefixes, [prefix, handler] as [string, UpgradeHandler]].sort(
      ([a], [b]) => b.length - a.length,
    );
    return () => {
      this.prefixes = this.prefixes.filter(([, known]) => known !== handler);
    };
  }

  handlerFor(path: string): UpgradeHandler | undefined {
    return this.exact.get(path) ?? this.prefixes.find(([prefix]) => path.startsWith(prefix))?.[1];
  }

  /** The listener for the HTTP server's 'upgrade' event. */
  readonly listener: UpgradeHandler = (request, socket, head) => {
    const handler = this.handlerFor(upgradePath(request));
    if (handler) {
      handler(request, socket, head);
    } else {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    }
  };
}
