// One WebSocket that comes back (reconnection with backoff): after a close the manager
// did not ask for, a new socket is opened after a growing, jittered delay (1 s, 1.5 s, 2.25 s …
// up to 10 s by default), so a restarted server is not hit by every client at the same instant.
// Each successful open is a new `connection` number, which tells the manager to bind again.
import type { WebSocketFactory, WebSocketLike } from '../fhircast/connection';

export interface BackoffOptions {
  /** First delay after a drop, ms (default 1000). */
  minDelay?: number;
  /** Longest delay, ms (default 10000). */
  maxDelay?: number;
  /** Growth per failed attempt (default 1.5). */
  factor?: number;
  /** 0..1, for tests; each delay is scaled by 0.5 + random() / 2. */
  random?: () => number;
}

/** The delay before reconnection attempt `attempt` (0 for the first after a drop). */
export function reconnectDelay(attempt: number, options: BackoffOptions = {}): number {
  const { minDelay = 1000, maxDelay = 10_000, factor = 1.5, random = Math.random } = options;
  const base = Math.min(maxDelay, minDelay * factor ** attempt);
  return Math.round(base * (0.5 + random() / 2));
}

export interface ReconnectingSocketHandlers {
  onOpen: () => void;
  onMessage: (data: unknown) => void;
  onClose: () => void;
  onError: (error: Error) => void;
}

export class ReconnectingSocket {
  private socket: WebSocketLike | undefined;
  private open = false;
  private stopped = false;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Incremented on every open: bindings made on an earlier connection are gone. */
  connection = 0;

  constructor(
    private readonly url: string,
    private readonly createSocket: WebSocketFactory,
    private readonly handlers: ReconnectingSocketHandlers,
    private readonly backoff: BackoffOptions = {},
  ) {
    this.connect();
  }

  get isOpen(): boolean {
    return this.open;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Sends when open; returns whether it did (a closed socket's messages are not queued: re-binding replaces them). */
  send(text: string): boolean {
    if (!this.open || !this.socket) return false;
    this.socket.send(text);
    return true;
  }

  /** Drops the current socket and opens another now (a dead connection that still looks open). */
  reconnect(): void {
    if (this.stopped) return;
    this.attempt = 0;
    const old = this.socket;
    this.detach();
    old?.close();
    this.handlers.onClose();
    this.connect();
  }

  /** Closes for good: no reconnection. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    const old = this.socket;
    const wasOpen = this.open;
    this.detach();
    old?.close();
    if (wasOpen || old) this.handlers.onClose();
  }

  private detach(): void {
    this.socket = undefined;
    this.open = false;
  }

  private connect(): void {
    this.timer = undefined;
    let socket: WebSocketLike;
    try {
      socket = this.createSocket(this.url);
    } catch {
      this.handlers.onError(new Error('WebSocket error'));
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    // Events of a socket already replaced or closed are ignored.
    const current = () => this.socket === socket;
    socket.addEventListener('open', () => {
      if (!current()) return;
      this.open = true;
      this.attempt = 0;
      this.connection++;
      this.handlers.onOpen();
    });
    socket.addEventListener('message', (event) => {
      if (current()) this.handlers.onMessage(event.data);
    });
    socket.addEventListener('error', () => {
      if (current()) this.handlers.onError(new Error('WebSocket error'));
    });
    socket.addEventListener('close', () => {
      if (!current()) return;
      this.detach();
      this.handlers.onClose();
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.timer) return;
    const delay = reconnectDelay(this.attempt++, this.backoff);
    this.timer = setTimeout(() => this.connect(), delay);
  }
}
