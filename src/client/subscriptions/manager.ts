// The live-subscription manager (SPEC §4 "Live subscriptions", §5, §7 live updates, §8),
// with @medplum/core's SubscriptionManager surface so Medplum apps run unchanged:
// - one socket for every criteria; criteria are reference-counted and the socket closes when the
//   last one is removed;
// - per criteria: a Subscription (channel websocket) is created, a binding token fetched, and
//   bind-with-token sent; each criteria has its own emitter, the master emitter hears everything;
// - after a dropped connection the socket comes back with backoff (reconnecting-socket.ts) and every
//   criteria binds again with the last event number it saw, so the server replays what was missed,
//   or answers with a gap (emitted as 'gap': refetch);
// - a notification for an unknown subscription logs a warning (SPEC §8).
import type { Subscription } from '@medplum/fhirtypes';
import { badRequest, OperationOutcomeError } from '../../fhir/outcomes';
import { defaultWebSocketFactory } from '../fhircast/connection';
import type { WebSocketFactory, WebSocketLike } from '../fhircast/connection';
import { FhirClient } from '../fhir-client';
import { getBindingToken } from './binding-token';
import { SubscriptionEmitter } from './emitter';
import type { SubscriptionEvent } from './emitter';
import { parseSocketMessage } from './notifications';
import type { SocketMessage } from './notifications';
import { ReconnectingSocket } from './reconnecting-socket';
import type { BackoffOptions } from './reconnecting-socket';

export const INVALID_CLIENT = 'First arg of constructor should be a `BloomClient`';
export const INVALID_URL = 'Not a valid URL';
export const UNKNOWN_SUBSCRIPTION_WARNING =
  'Received notification for criteria the SubscriptionManager is not listening for';

export interface SubscriptionManagerOptions {
  /** Makes the socket; the environment's WebSocket by default (Node 20: pass one, e.g. from `ws`). */
  createSocket?: WebSocketFactory;
  /** Or the WebSocket class to construct (e.g. `ws`'s default export in Node). */
  WebSocket?: new (url: string) => WebSocketLike;
  backoff?: BackoffOptions;
  /** A ping this often; no pong by the next one means a dead connection: reconnect (default 5000; 0: never). */
  pingIntervalMs?: number;
}

/** What the manager reads of a signed-in client besides FHIR calls (BloomClient has it). */
interface SessionAware {
  getActiveLogin?(): { profile?: { reference?: string } } | undefined;
}

interface CriteriaEntry {
  criteria: string;
  props: Partial<Subscription> | undefined;
  key: string;
  emitter: SubscriptionEmitter;
  refCount: number;
  subscriptionId?: string;
  creating?: Promise<string>;
  token?: string;
  tokenExpires?: number;
  /** A token fetch and bind in progress (it binds on the open socket when done). */
  binding?: Promise<void>;
  /** The socket connection the bind was sent on: 0 for none. */
  boundConnection: number;
  /** The last event seen (or the server's position at the handshake): sent on re-bind. */
  lastEventNumber?: string;
  /** The position the current binding's handshake announced: where a gap leaves us. */
  handshakePosition?: string;
  removed: boolean;
}

/** A binding token within this margin of its expiry is fetched again instead of reused. */
const TOKEN_MARGIN_MS = 30_000;

function entryKey(criteria: string, props: Partial<Subscription> | undefined): string {
  return props ? `${criteria}\u0000${JSON.stringify(props)}` : criteria;
}

/** ws(s) URL of the socket: http(s) is turned into ws(s); anything else is not a valid URL. */
function socketUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OperationOutcomeError(badRequest(INVALID_URL));
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(parsed.protocol)) {
    throw new OperationOutcomeError(badRequest(INVALID_URL));
  }
  parsed.protocol = parsed.protocol.replace('http', 'ws');
  return parsed.toString();
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

export class SubscriptionManager {
  private readonly client: FhirClient & SessionAware;
  private readonly url: string;
  private readonly createSocket: WebSocketFactory;
  private readonly entries = new Map<string, CriteriaEntry>();
  private readonly bySubscriptionId = new Map<string, CriteriaEntry>();
  private readonly master = new SubscriptionEmitter();
  private socket: ReconnectingSocket | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private waitingForPong = false;
  private person: string | undefined;

  constructor(
    client: FhirClient,
    url: URL | string,
    private readonly options: SubscriptionManagerOptions = {},
  ) {
    if (!(client instanceof FhirClient)) {
      throw new OperationOutcomeError(badRequest(INVALID_CLIENT));
    }
    this.client = client;
    this.url = socketUrl(url);
    const Ctor = options.WebSocket;
    this.createSocket = options.createSocket ?? (Ctor ? (u) => new Ctor(u) : defaultWebSocketFactory());
    this.person = this.currentPerson();
    this.client.addEventListener('change', this.onLoginChange);
  }

  /** Listens to `criteria` (one more reference if already listened to); its emitter. */
  addCriteria(criteria: string, subscriptionProps?: Partial<Subscription>): SubscriptionEmitter {
    const key = entryKey(criteria, subscriptionProps);
    const existing = this.entries.get(key);
    if (existing) {
      existing.refCount++;
      return existing.emitter;
    }
    const entry: CriteriaEntry = {
      criteria,
      props: subscriptionProps ? { ...subscriptionProps } : undefined,
      key,
      emitter: new SubscriptionEmitter(criteria),
      refCount: 1,
      boundConnection: 0,
      removed: false,
    };
    this.entries.set(key, entry);
    this.master._addCriteria(criteria);
    this.ensureSocket();
    this.startBind(entry);
    return entry.emitter;
  }

  /** One reference less; the last one unbinds the criteria, and the last criteria closes the socket. */
  removeCriteria(criteria: string, subscriptionProps?: Partial<Subscription>): void {
    const entry = this.entries.get(entryKey(criteria, subscriptionProps));
    if (!entry) {
      console.warn('Criteria not known to `SubscriptionManager`. Possibly called remove too many times.');
      return;
    }
    entry.refCount--;
    if (entry.refCount > 0) return;
    this.dropEntry(entry, true);
    if (this.entries.size === 0) this.closeWebSocket();
  }

  /** Hears every criteria's events, and the socket's open, close and errors. */
  getMasterEmitter(): SubscriptionEmitter {
    return this.master;
  }

  getCriteriaCount(): number {
    return this.entries.size;
  }

  /** Whether the socket exists (connecting, open or waiting to reconnect). */
  isSocketActive(): boolean {
    return this.socket !== undefined;
  }

  /** Drops every criteria and closes the socket. */
  closeWebSocket(): void {
    for (const entry of [...this.entries.values()]) this.dropEntry(entry, true);
    this.stopPing();
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
  }

  /** A new connection now (every criteria binds again with its last event number). */
  reconnectWebSocket(): void {
    this.socket?.reconnect();
  }

  private ensureSocket(): void {
    if (this.socket) return;
    this.socket = new ReconnectingSocket(
      this.url,
      this.createSocket,
      {
        onOpen: () => this.onOpen(),
        onMessage: (data) => this.onMessage(data),
        onClose: () => this.onClose(),
        onError: (error) => this.broadcast({ type: 'error', payload: error }),
      },
      this.options.backoff,
    );
  }

  private onOpen(): void {
    this.broadcast({ type: 'open' });
    this.startPing();
    for (const entry of this.entries.values()) this.startBind(entry);
  }

  private onClose(): void {
    this.stopPing();
    this.broadcast({ type: 'close' });
  }

  /** Fetches a token (or reuses a fresh one) and binds on the open socket; one at a time per criteria. */
  private startBind(entry: CriteriaEntry): void {
    if (entry.binding) return;
    const fresh = entry.token && (entry.tokenExpires ?? 0) - Date.now() > TOKEN_MARGIN_MS;
    if (fresh) {
      this.sendBind(entry);
      return;
    }
    entry.binding = this.bind(entry).finally(() => {
      entry.binding = undefined;
    });
  }

  private async bind(entry: CriteriaEntry): Promise<void> {
    try {
      const subscriptionId = await this.ensureSubscription(entry);
      if (entry.removed) return;
      const { token, expiration } = await getBindingToken(this.client, subscriptionId);
      if (entry.removed) return;
      entry.token = token;
      entry.tokenExpires = expiration ? Date.parse(expiration) : undefined;
      this.bySubscriptionId.set(subscriptionId, entry);
      this.sendBind(entry);
    } catch (err) {
      if (!entry.removed) this.emit(entry, { type: 'error', payload: asError(err) });
    }
  }

  private ensureSubscription(entry: CriteriaEntry): Promise<string> {
    if (entry.subscriptionId) return Promise.resolve(entry.subscriptionId);
    entry.creating ??= this.client
      .createResource<Subscription>({
        ...entry.props,
        resourceType: 'Subscription',
        status: 'active',
        reason: entry.props?.reason ?? `WebSocket subscription for ${this.person ?? 'this client'}`,
        channel: { ...entry.props?.channel, type: 'websocket' },
        criteria: entry.criteria,
      })
      .then((subscription) => {
        entry.subscriptionId = subscription.id as string;
        return entry.subscriptionId;
      })
      .finally(() => {
        entry.creating = undefined;
      });
    return entry.creating;
  }

  /** bind-with-token on the open socket, once per connection, with the last event seen. */
  private sendBind(entry: CriteriaEntry): void {
    const socket = this.socket;
    if (!socket?.isOpen || !entry.token || entry.boundConnection === socket.connection) return;
    const payload: { token: string; lastEventNumber?: string } = { token: entry.token };
    if (entry.lastEventNumber !== undefined) payload.lastEventNumber = entry.lastEventNumber;
    if (socket.send(JSON.stringify({ type: 'bind-with-token', payload }))) {
      entry.boundConnection = socket.connection;
    }
  }

  private onMessage(data: unknown): void {
    let message: SocketMessage;
    try {
      message = parseSocketMessage(data);
    } catch (err) {
      this.broadcast({ type: 'error', payload: asError(err) });
      return;
    }
    switch (message.kind) {
      case 'pong':
        this.waitingForPong = false;
        return;
      case 'error':
        this.master.dispatchEvent({
          type: 'error',
          payload: new OperationOutcomeError(message.outcome ?? badRequest('WebSocket error')),
        });
        return;
      case 'unknown':
        console.warn('Received WebSocket message without a SubscriptionStatus resource; ignoring');
        return;
      default:
        this.onStatus(message);
    }
  }

  private onStatus(message: Exclude<SocketMessage, { kind: 'pong' | 'error' | 'unknown' }>): void {
    const entry = this.bySubscriptionId.get(message.subscriptionId);
    switch (message.kind) {
      case 'handshake': {
        const event = { type: 'connect', payload: { subscriptionId: message.subscriptionId } } as const;
        this.master.dispatchEvent(event);
        if (!entry) return;
        entry.handshakePosition = message.position;
        entry.lastEventNumber ??= message.position;
        entry.emitter.dispatchEvent(event);
        return;
      }
      case 'heartbeat':
        this.master.dispatchEvent({ type: 'heartbeat', payload: message.bundle });
        entry?.emitter.dispatchEvent({ type: 'heartbeat', payload: message.bundle });
        return;
      case 'gap':
        this.master.dispatchEvent({ type: 'gap', payload: message.bundle });
        if (!entry) return;
        // What was missed is gone; from here on the new binding's events count.
        entry.lastEventNumber = entry.handshakePosition;
        entry.emitter.dispatchEvent({ type: 'gap', payload: message.bundle });
        return;
      case 'event':
        this.master.dispatchEvent({ type: 'message', payload: message.bundle });
        if (!entry) {
          console.warn(UNKNOWN_SUBSCRIPTION_WARNING);
          return;
        }
        if (message.eventNumber !== undefined) entry.lastEventNumber = message.eventNumber;
        entry.emitter.dispatchEvent({ type: 'message', payload: message.bundle });
    }
  }

  private dropEntry(entry: CriteriaEntry, unbind: boolean): void {
    entry.removed = true;
    this.entries.delete(entry.key);
    if (![...this.entries.values()].some((e) => e.criteria === entry.criteria)) {
      this.master._removeCriteria(entry.criteria);
    }
    if (entry.subscriptionId) {
      this.bySubscriptionId.delete(entry.subscriptionId);
      if (unbind && entry.token && entry.boundConnection === this.socket?.connection) {
        this.socket?.send(JSON.stringify({ type: 'unbind-from-token', payload: { token: entry.token } }));
      }
      const event = { type: 'disconnect', payload: { subscriptionId: entry.subscriptionId } } as const;
      this.master.dispatchEvent(event);
      entry.emitter.dispatchEvent(event);
    }
  }

  private emit(entry: CriteriaEntry, event: SubscriptionEvent): void {
    this.master.dispatchEvent(event);
    entry.emitter.dispatchEvent(event);
  }

  /** To the master emitter and every criteria's. */
  private broadcast(event: SubscriptionEvent): void {
    this.master.dispatchEvent(event);
    for (const entry of this.entries.values()) entry.emitter.dispatchEvent(event);
  }

  private startPing(): void {
    const interval = this.options.pingIntervalMs ?? 5000;
    if (interval <= 0 || this.pingTimer) return;
    this.waitingForPong = false;
    this.pingTimer = setInterval(() => {
      if (this.waitingForPong) {
        this.waitingForPong = false;
        this.socket?.reconnect();
        return;
      }
      this.waitingForPong = this.socket?.send(JSON.stringify({ type: 'ping' })) ?? false;
    }, interval);
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.waitingForPong = false;
  }

  private currentPerson(): string | undefined {
    return this.client.getActiveLogin?.()?.profile?.reference;
  }

  /**
   * Sign-out closes everything (the bindings speak for the previous person); another person gets
   * new Subscriptions of their own on a new connection; a token refresh changes nothing.
   */
  private readonly onLoginChange = (): void => {
    const person = this.currentPerson();
    if (person === this.person) return;
    const hadPerson = this.person !== undefined;
    this.person = person;
    if (!person) {
      this.closeWebSocket();
      return;
    }
    if (!hadPerson) {
      // Signed in after subscribing: the criteria whose Subscription could not be created bind now.
      for (const entry of this.entries.values()) this.startBind(entry);
      return;
    }
    this.bySubscriptionId.clear();
    for (const entry of this.entries.values()) {
      Object.assign(entry, {
        subscriptionId: undefined,
        token: undefined,
        tokenExpires: undefined,
        lastEventNumber: undefined,
        handshakePosition: undefined,
        boundConnection: 0,
      });
    }
    this.reconnectWebSocket();
  };
}
