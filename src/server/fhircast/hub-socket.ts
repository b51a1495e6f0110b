// One subscriber's WebSocket (SPEC §7: each non-heartbeat message is acknowledged).
// Every event sent waits for an acknowledgement {id} for `ackTimeout` ms; a send that fails, a
// socket that is gone, a late or missing acknowledgement, or one with a non-2xx status is a failed
// delivery, reported once through onFailure (the hub turns it into a syncerror for the publisher).
import crypto from 'node:crypto';
import WebSocket from 'ws';
import type { FhircastMessage } from '../../fhir/fhircast';
import type { SubscriptionRow } from './store';

export interface HubSocketOptions {
  ackTimeout: number;
  onFailure: (message: FhircastMessage, publisher: string, reason: string) => void;
}

export class HubSocket {
  private readonly pending = new Map<
    string,
    { message: FhircastMessage; publisher: string; timer: NodeJS.Timeout }
  >();

  constructor(
    readonly ws: WebSocket,
    readonly subscription: SubscriptionRow,
    private readonly options: HubSocketOptions,
  ) {
    ws.on('message', (data) => this.acknowledged(data.toString()));
    ws.on('close', () => {
      for (const id of [...this.pending.keys()]) this.fail(id, 'the subscriber disconnected');
    });
  }

  wants(eventName: string): boolean {
    return eventName === 'syncerror' || this.subscription.events.includes(eventName);
  }

  /** Sends `message` (published by `publisher`) and waits for its acknowledgement. */
  deliver(message: FhircastMessage, publisher: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) {
      if (message.event['hub.event'] !== 'syncerror')
        this.options.onFailure(message, publisher, 'the subscriber is not connected');
      return;
    }
    // A syncerror is never acknowledged into another syncerror: no timer for it.
    if (message.event['hub.event'] !== 'syncerror') {
      const timer = setTimeout(() => this.fail(message.id, 'no acknowledgement'), this.options.ackTimeout);
      timer.unref();
      this.pending.set(message.id, { message, publisher, timer });
    }
    this.ws.send(JSON.stringify(message), (err) => {
      if (err) this.fail(message.id, 'the send failed');
    });
  }

  heartbeat(): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(
      JSON.stringify({
        timestamp: new Date().toISOString(),
        id: crypto.randomUUID(),
        event: { 'hub.topic': this.subscription.topic, 'hub.event': 'heartbeat', context: [] },
      }),
    );
  }

  private acknowledged(text: string): void {
    let ack: { id?: unknown; status?: unknown };
    try {
      ack = JSON.parse(text) as { id?: unknown; status?: unknown };
    } catch {
      return;
    }
    if (typeof ack !== 'object' || ack === null || typeof ack.id !== 'string') return;
    const entry = this.pending.get(ack.id);
    if (!entry) return;
    const status = ack.status === undefined ? '200' : String(ack.status);
    if (!status.startsWith('2')) {
      this.fail(ack.id, `the subscriber answered status ${status}`);
      return;
    }
    clearTimeout(entry.timer);
    this.pending.delete(ack.id);
  }

  /** Settles a pending delivery as failed (once: later failures of the same id are ignored). */
  private fail(id: string, reason: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(id);
    this.options.onFailure(entry.message, entry.publisher, reason);
  }

  /** Ends the socket with FHIRcast's `denied` and close code `code` (4403: no longer allowed). */
  deny(reason: string, code: number): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    if (this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(
        JSON.stringify({
          'hub.mode': 'denied',
          'hub.topic': this.subscription.topic,
          'hub.events': this.subscription.events.join(','),
          'hub.reason': reason,
        }),
      );
    }
    this.ws.close(code, reason);
  }

  close(): void {
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.ws.close(1000, 'unsubscribed');
  }
}
