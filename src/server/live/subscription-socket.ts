// One WebSocket at /ws/subscriptions-r4 (SPEC §7 live updates). Messages from the client:
//   {"type":"bind-with-token","payload":{"token":"…","lastEventNumber":"…"?}}
//   {"type":"unbind-from-token","payload":{"token":"…"}}
//   {"type":"ping"}
// A bound subscription gets a handshake Bundle, then event-notification Bundles for each matching
// write its caller may see, and heartbeats (sent by the plugin's timer). With lastEventNumber the
// client receives the events it missed since then, or a gap Bundle when the log no longer reaches
// back. Creates, updates and deletes are events; Medplum's subscription-supported-interaction
// extension narrows them (interactions.ts). Bad input (not JSON, unknown type, bad token, unknown or foreign Subscription, bad criteria)
// is answered with {"type":"error","payload":OperationOutcome} and the socket stays open, as
// Medplum's does; only a client too slow to read its messages is closed. An attachment URL naming
// a Binary the subscription's owner may read goes out freshly signed, as in REST answers (SPEC §3
// Attachment, §7 Binary); messages still leave in order.
import type { Bundle, Subscription } from '@medplum/fhirtypes';
import type { WebSocket } from 'ws';
import { badRequest } from '../../fhir';
import type { ServerServices } from '../services';
import type { BinaryUrlSigner } from '../binary/attachment-urls';
import { mayNameBinary, readableThrough, signAttachmentUrls } from '../binary/signed-responses';
import { Repository } from '../repo';
import { deliverableTo } from './audience';
import type { LiveAudience } from './audience';
import { verifyBindingToken } from './binding-token';
import { parseCriteria } from './criteria';
import type { MatchTarget } from './criteria-match';
import type { WriteEvent } from './event-log';
import type { LiveEngine } from './live-engine';
import { interactionFilter } from './interactions';
import { OrderedOutbox } from './ordered-outbox';
import { eventBundle, gapBundle, handshakeBundle, heartbeatBundle } from './notification-bundles';
import { routingKey } from './routing-keys';

/** Bound subscriptions per socket: one app needs a handful; the cap bounds one socket's cost. */
export const MAX_BINDINGS_PER_SOCKET = 100;
/** Unread output above this closes the socket (1013 try again later): the client will re-bind. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

interface Binding {
  subscriptionId: string;
  audience: LiveAudience;
  wants: (event: WriteEvent) => boolean;
  unsubscribe: () => void;
  /** Live events heard while the missed ones are replayed, sent after them. */
  held: [WriteEvent, MatchTarget][] | undefined;
  lastEvent: string | undefined;
  /** Whether the subscription's owner (the bound user) may read a Binary: a read as them. */
  mayReadBinary: (id: string) => Promise<boolean>;
}

export interface SubscriptionSocketOptions {
  deps: ServerServices;
  engine: LiveEngine;
  fhirBase: string;
  /** Signs attachment URLs of Binaries the owner may read; without it they go out as stored. */
  binaryUrls?: BinaryUrlSigner;
}

function errorMessage(text: string): string {
  return JSON.stringify({ type: 'error', payload: badRequest(text) });
}

export class SubscriptionSocket {
  private readonly bindings = new Map<string, Binding>();
  /** Messages are handled one at a time, so a bind finishes before the next message is read. */
  private queue: Promise<void> = Promise.resolve();
  /** Bundles in order, an event's held until its attachment URLs are signed. */
  private readonly outbox = new OrderedOutbox((text) => this.sendRaw(text));

  constructor(
    private readonly socket: WebSocket,
    private readonly options: SubscriptionSocketOptions,
  ) {
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? undefined : data.toString();
      this.queue = this.queue.then(() => this.handle(text));
    });
    socket.on('close', () => this.unbindAll());
  }

  get bindingCount(): number {
    return this.bindings.size;
  }

  heartbeat(): void {
    for (const binding of this.bindings.values()) {
      this.send(heartbeatBundle(binding.subscriptionId, binding.lastEvent));
    }
  }

  private async handle(text: string | undefined): Promise<void> {
    let message: unknown;
    try {
      message = text === undefined ? undefined : JSON.parse(text);
    } catch {
      message = undefined;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.sendRaw(errorMessage('Messages must be JSON objects with a type'));
      return;
    }
    const { type, payload } = message as { type?: unknown; payload?: unknown };
    const fields = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<
      string,
      unknown
    >;
    try {
      switch (type) {
        case 'bind-with-token':
          await this.bind(fields.token, fields.lastEventNumber);
          return;
        case 'unbind-from-token':
          await this.unbind(fields.token);
          return;
        case 'ping':
          this.sendRaw(JSON.stringify({ type: 'pong' }));
          return;
        default:
          this.sendRaw(errorMessage(`Unknown message type '${String(type)}'`));
      }
    } catch (err) {
      // OperationOutcomeError's message is already its issues' text (bad criteria).
      this.sendRaw(errorMessage(err instanceof Error ? err.message : 'Bad request'));
    }
  }

  private async bind(token: unknown, lastEventNumber: unknown): Promise<void> {
    if (typeof token !== 'string' || token === '') {
      throw new Error('bind-with-token needs payload.token');
    }
    if (
      lastEventNumber !== undefined &&
      (typeof lastEventNumber !== 'string' || !/^\d+$/.test(lastEventNumber))
    ) {
      throw new Error('lastEventNumber must be the eventNumber of a notification received earlier');
    }
    const { subscriptionId, context } = await verifyBindingToken(this.options.deps, token);
    const repo = new Repository(this.options.deps.db, context);
    let subscription: Subscription;
    try {
      subscription = await repo.readResource<Subscription>('Subscription', subscriptionId);
    } catch {
      throw new Error(`Subscription/${subscriptionId} not found`);
    }
    if (subscription.channel?.type !== 'websocket') {
      throw new Error('Only Subscriptions with channel type websocket can be bound');
    }
    if (subscription.status !== 'active' && subscription.status !== 'requested') {
      throw new Error(`Subscription/${subscriptionId} is ${subscription.status}`);
    }
    const criteria = parseCriteria(subscription.criteria);
    if (!this.bindings.has(subscriptionId) && this.bindings.size >= MAX_BINDINGS_PER_SOCKET) {
      throw new Error(`At most ${MAX_BINDINGS_PER_SOCKET} subscriptions per socket`);
    }
    this.bindings.get(subscriptionId)?.unsubscribe();
    const binding: Binding = {
      subscriptionId,
      audience: { context, criteria },
      wants: interactionFilter(subscription),
      unsubscribe: () => undefined,
      held: lastEventNumber === undefined ? undefined : [],
      lastEvent: undefined,
      mayReadBinary: readableThrough(repo),
    };
    binding.unsubscribe = this.options.engine.subscribe(
      criteria.resourceType,
      (event, target) => {
        if (binding.held) binding.held.push([event, target]);
        else this.notify(binding, event, target);
      },
      routingKey(criteria),
    );
    this.bindings.set(subscriptionId, binding);
    const head = this.options.engine.log.head;
    binding.lastEvent = head;
    this.send(handshakeBundle(subscriptionId, head));
    if (lastEventNumber !== undefined) {
      await this.replay(binding, lastEventNumber);
    }
  }

  private async replay(binding: Binding, lastEventNumber: string): Promise<void> {
    const held = binding.held ?? [];
    let sent = new Set<string>();
    try {
      const replay = await this.options.engine.replaySince(
        lastEventNumber,
        binding.audience.criteria.resourceType,
      );
      if (replay.kind === 'gap') {
        this.send(gapBundle(binding.subscriptionId, lastEventNumber));
      } else {
        for (const [event, target] of replay.deliveries) this.notify(binding, event, target);
        sent = new Set(replay.deliveries.map(([event]) => event.seq));
      }
    } finally {
      binding.held = undefined;
      for (const [event, target] of held) {
        if (!sent.has(event.seq)) this.notify(binding, event, target);
      }
    }
  }

  private async unbind(token: unknown): Promise<void> {
    if (typeof token !== 'string' || token === '') {
      throw new Error('unbind-from-token needs payload.token');
    }
    const { subscriptionId } = await verifyBindingToken(this.options.deps, token);
    const binding = this.bindings.get(subscriptionId);
    if (!binding) {
      throw new Error(`Subscription/${subscriptionId} is not bound on this socket`);
    }
    binding.unsubscribe();
    this.bindings.delete(subscriptionId);
  }

  private notify(binding: Binding, event: WriteEvent, target: MatchTarget): void {
    const resource = binding.wants(event) ? deliverableTo(binding.audience, target) : undefined;
    if (resource) {
      binding.lastEvent = event.seq;
      this.send(
        eventBundle(binding.subscriptionId, event.seq, resource, this.options.fhirBase, event.deleted),
        binding,
      );
    }
  }

  /**
   * Sends `bundle`; an event's (with its `binding`) has its attachment URLs signed for the owner
   * first. Only a message whose text can name a Binary is walked; a failed signing sends it as stored.
   */
  private send(bundle: Bundle, binding?: Binding): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const text = JSON.stringify(bundle);
    const signer = this.options.binaryUrls;
    if (!binding || !signer || !mayNameBinary(text, signer)) {
      this.outbox.push(text);
      return;
    }
    this.outbox.push(
      signAttachmentUrls(bundle, signer, binding.mayReadBinary).then(
        (signed) => (signed === bundle ? text : JSON.stringify(signed)),
        () => text,
      ),
    );
  }

  private sendRaw(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.close(1013, 'Too slow: re-bind with the last event number');
      return;
    }
    this.socket.send(text);
  }

  private unbindAll(): void {
    for (const binding of this.bindings.values()) binding.unsubscribe();
    this.bindings.clear();
  }
}
