// The hub on one instance: the sockets connected here, and LISTEN on the fhircast
// channel for messages and unsubscriptions committed by any instance (store.ts NOTIFYs). Each
// message is loaded once and handed to this instance's sockets on its project and topic that asked
// for its event. A failed delivery becomes a syncerror for the publisher's own sockets on the topic.
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Database } from '../db';
import type { FhircastEvent, FhircastMessage } from '../../fhir/fhircast';
import { HubSocket } from './hub-socket';
import { decodeNotice, FhircastStore } from './store';
import type { StoredMessage } from './store';
import { mayHear } from './topic-access';

const NOT_SHARED = 'The topic is not shared with this subscriber';

export class FhircastHub {
  readonly store: FhircastStore;
  private readonly sockets = new Set<HubSocket>();
  private stopListening: (() => Promise<void>) | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  /** Notifications are handled in the order heard, so each topic's events arrive in commit order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly logger: FastifyBaseLogger,
    private readonly options: { heartbeatInterval: number; ackTimeout: number },
  ) {
    this.store = new FhircastStore(db);
  }

  async start(): Promise<void> {
    if (!this.db.listen) {
      this.logger.warn('This database offers no LISTEN: FHIRcast subscribers receive no events');
    } else {
      this.stopListening = await this.db.listen(await this.store.channelName(), (payload) => {
        this.queue = this.queue
          .then(() => this.heard(payload))
          .catch((err: unknown) => {
            this.logger.error({ err }, 'FHIRcast delivery failed');
          });
      });
    }
    this.heartbeatTimer = setInterval(() => {
      for (const socket of this.sockets) socket.heartbeat();
    }, this.options.heartbeatInterval);
    this.heartbeatTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    await this.stopListening?.();
    for (const socket of [...this.sockets]) socket.ws.terminate();
    await this.queue;
  }

  /**
   * Serves `ws` for the subscription behind `endpointId`; closes it when there is none (4404) or
   * when its subscriber may no longer hear the topic (4403).
   */
  async attach(ws: WebSocket, endpointId: string): Promise<void> {
    const subscription = await this.store.findSubscription(endpointId);
    if (!subscription) {
      ws.send(JSON.stringify({ 'hub.mode': 'denied', 'hub.reason': 'Unknown or ended subscription' }));
      ws.close(4404, 'Unknown subscription');
      return;
    }
    const ownership = await this.store.findTopic(subscription.project, subscription.topic);
    if (!mayHear(ownership, subscription.subscriber)) {
      ws.send(
        JSON.stringify({ 'hub.mode': 'denied', 'hub.topic': subscription.topic, 'hub.reason': NOT_SHARED }),
      );
      ws.close(4403, 'Forbidden');
      return;
    }
    const socket = new HubSocket(ws, subscription, {
      ackTimeout: this.options.ackTimeout,
      onFailure: (message, publisher, reason) =>
        this.deliveryFailed(subscription.project, message, publisher, reason),
    });
    this.sockets.add(socket);
    ws.on('close', () => this.sockets.delete(socket));
    // FHIRcast's confirmation of the subscription, sent once the socket is open.
    ws.send(
      JSON.stringify({
        'hub.mode': 'subscribe',
        'hub.topic': subscription.topic,
        'hub.events': subscription.events.join(','),
      }),
    );
  }

  private async heard(payload: string): Promise<void> {
    const notice = decodeNotice(payload);
    if (!notice) {
      this.logger.warn({ payload }, 'Ignoring a malformed FHIRcast notification');
    } else if (notice.kind === 'unsubscribed') {
      for (const socket of this.sockets) {
        if (socket.subscription.endpoint_id === notice.endpointId) socket.close();
      }
    } else if (notice.kind === 'revoked') {
      for (const socket of this.sockets) {
        if (socket.subscription.endpoint_id === notice.endpointId) socket.deny(NOT_SHARED, 4403);
      }
    } else {
      const stored = await this.store.loadMessage(notice.seq);
      if (stored) this.deliver(stored);
    }
  }

  private deliver(stored: StoredMessage): void {
    const eventName = stored.message.event['hub.event'];
    for (const socket of this.sockets) {
      const { project, topic, subscriber } = socket.subscription;
      if (project !== stored.project || topic !== stored.topic || !socket.wants(eventName)) continue;
      if (stored.only_subscriber !== null && stored.only_subscriber !== subscriber) continue;
      socket.deliver(stored.message, stored.publisher);
    }
  }

  private deliveryFailed(project: string, message: FhircastMessage, publisher: string, reason: string): void {
    const event: FhircastEvent = {
      'hub.topic': message.event['hub.topic'],
      'hub.event': 'syncerror',
      context: [
        {
          key: 'operationoutcome',
          resource: {
            resourceType: 'OperationOutcome',
            id: message.id,
            issue: [
              {
                severity: 'warning',
                code: 'processing',
                diagnostics: `${message.event['hub.event']} ${message.id} was not delivered: ${reason}`,
              },
            ],
          },
        },
      ],
    };
    this.store.sendSyncError(project, event, publisher).catch((err: unknown) => {
      this.logger.error({ err }, 'FHIRcast syncerror failed');
    });
  }
}
