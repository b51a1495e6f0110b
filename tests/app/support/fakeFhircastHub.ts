// A fake FHIRcast hub client for the share-context tests: records subscriptions and
// publishes (checked with the real client's SPEC §5 rules), and delivers events as the hub's socket would.
import type { FhircastConnectionHandlers, FhircastPublishOptions } from '../../../src/client/fhircast';
import type { FhircastMessage, FhircastSubscriptionRequest } from '../../../src/fhir/fhircast';
import { validatePublish } from '../../../src/fhir/fhircast';
import type { FhircastApi } from '../../../src/app/session/share/contextSharing';

export interface Published {
  topic: string;
  event: string;
  context: unknown;
  /** Only when the publish asked for something (keepalive). */
  options?: FhircastPublishOptions;
}

export class FakeHub implements FhircastApi {
  readonly published: Published[] = [];
  readonly subscriptions: Array<{ topic: string; events: string[] }> = [];
  readonly unsubscribed: FhircastSubscriptionRequest[] = [];
  handlers: FhircastConnectionHandlers | undefined;
  disconnects = 0;
  subscribeFailures: Error[] = [];
  publishFailure: Error | undefined;

  async fhircastSubscribe(topic: string, events: string[]) {
    this.subscriptions.push({ topic, events });
    const failure = this.subscribeFailures.shift();
    if (failure) throw failure;
    return {
      channelType: 'websocket',
      mode: 'subscribe',
      topic,
      events,
      endpoint: `ws://hub/${this.subscriptions.length}`,
    };
  }

  async fhircastUnsubscribe(request: FhircastSubscriptionRequest) {
    this.unsubscribed.push(request);
  }

  fhircastConnect(_request: FhircastSubscriptionRequest, handlers: FhircastConnectionHandlers) {
    this.handlers = handlers;
    return { disconnect: () => void this.disconnects++ };
  }

  async fhircastPublish(
    topic: string,
    event: string,
    context: unknown,
    versionId?: string,
    options?: FhircastPublishOptions,
  ) {
    // The real client's rules: a context this module builds must pass them.
    validatePublish(topic, event, context, versionId);
    if (this.publishFailure) throw this.publishFailure;
    this.published.push({ topic, event, context, ...(options ? { options } : {}) });
    return {};
  }

  /** The hub delivering an event on the socket. */
  deliver(event: string, context: FhircastMessage['event']['context']): void {
    this.handlers?.onMessage?.({
      timestamp: new Date().toISOString(),
      id: `m${Math.random()}`,
      event: { 'hub.topic': 'topic', 'hub.event': event as FhircastMessage['event']['hub.event'], context },
    });
  }
}
