// Every WebSocket path of the server (live updates, graphql-ws, FHIRcast, agents) is served here, on
// the HTTP server's one 'upgrade' listener. A plugin asks for a path and gets a `ws` server whose
// 'connection' event brings sockets that are already guarded: a bad frame closes only its own socket
// with the code `ws` chose (1009 too big, 1002 protocol error, 1007 invalid UTF-8), a binary frame
// closes it with 1003, each is logged once at warn level with its path and the peer's address, and
// a peer that stops answering pings is closed with 1008. Nothing a client sends can throw here.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer } from 'ws';
import { GuardedWebSocket } from './guarded-websocket';
import { upgradePath, UpgradePaths } from './upgrade-paths';

/** RFC 6455 close code 1008: the peer broke a rule of the server (here: it stopped answering). */
export const POLICY_VIOLATION = 1008;

/** A peer is closed after this many pings in a row go unanswered. */
const MISSED_PINGS_TO_CLOSE = 3;

export interface WebSocketPathOptions {
  /** The largest message in bytes; a larger one closes the socket with 1009. */
  maxPayload: number;
}

export interface WebSocketPathsSettings {
  /** Milliseconds between pings; a peer that answers none of three in a row is closed. */
  pingInterval: number;
}

/** The path's `ws` server and the function that stops serving it. */
export interface ServedPath {
  server: WebSocketServer;
  stop(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's WebSocket paths (operators and tests read their open sockets). */
    websockets: WebSocketPaths;
  }
}

export class WebSocketPaths {
  private readonly routes = new UpgradePaths();
  /** Each open socket and the route (path or prefix) it was served on. */
  private readonly open = new Map<GuardedWebSocket, string>();
  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly settings: WebSocketPathsSettings,
  ) {
    this.pinger = setInterval(() => this.ping(), settings.pingInterval);
    this.pinger.unref();
  }

  /** Serves WebSockets at exactly `path`. */
  serve(path: string, options: WebSocketPathOptions): ServedPath {
    const server = this.server(options);
    return { server, stop: this.routes.add(path, this.accept(path, server)) };
  }

  /** Serves WebSockets at every path below `prefix` (which ends with '/'). */
  servePrefix(prefix: string, options: WebSocketPathOptions): ServedPath {
    const server = this.server(options);
    return { server, stop: this.routes.addPrefix(prefix, this.accept(prefix, server)) };
  }

  /** Sockets open now on a path (or below a prefix) as it was served. */
  openSockets(route: string): number {
    return [...this.open.values()].filter((served) => served === route).length;
  }

  /** The listener for the HTTP server's 'upgrade' event. */
  readonly listener = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node takes its own 'error' listener off a socket it hands to 'upgrade'.
    socket.on('error', (err: NodeJS.ErrnoException) => {
      this.log.debug(
        { path: upgradePath(request), remoteAddress: remoteAddressOf(request), err },
        'Upgrade socket error',
      );
      socket.destroy();
    });
    this.routes.listener(request, socket, head);
  };

  close(): void {
    clearInterval(this.pinger);
  }

  private server(options: WebSocketPathOptions): WebSocketServer {
    return new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload,
      WebSocket: GuardedWebSocket,
    });
  }

  private accept(route: string, server: WebSocketServer) {
    return (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
      server.handleUpgrade(request, socket, head, (ws) => {
        const guarded = ws as GuardedWebSocket;
        const path = upgradePath(request);
        const remoteAddress = remoteAddressOf(request);
        guarded.onFault = (fault) =>
          this.log.warn({ path, remoteAddress, ...fault }, `WebSocket closed: ${fault.message}`);
        this.open.set(guarded, route);
        guarded.on('close', () => this.open.delete(guarded));
        server.emit('connection', guarded, request);
      });
    };
  }

  /**
   * Counts pings in a row the peer let pass without a sign of life. A stalled event loop can run
   * this timer before the pong waiting in the socket is read, so one miss is forgiven: a stall
   * costs one, a peer that has stopped answering misses them all.
   */
  private ping(): void {
    for (const ws of this.open.keys()) {
      if (ws.readyState !== ws.OPEN) continue;
      ws.missedPings = ws.lastHeard < ws.lastPinged ? ws.missedPings + 1 : 0;
      if (ws.missedPings >= MISSED_PINGS_TO_CLOSE) {
        ws.close(POLICY_VIOLATION, 'No answer to ping');
        ws.onFault({ closeCode: POLICY_VIOLATION, code: 'NO_PONG', message: 'No answer to ping' });
        continue;
      }
      ws.lastPinged = Date.now();
      ws.ping();
    }
  }
}

function remoteAddressOf(request: IncomingMessage): string | undefined {
  return request.socket.remoteAddress;
}
