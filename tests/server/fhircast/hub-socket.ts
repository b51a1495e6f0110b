// A test subscriber over the real WebSocket: collects what the hub sends, acknowledges events
// unless told not to, and waits for a message matching a predicate.
import WebSocket from 'ws';

export interface HubMessage {
  id?: string;
  timestamp?: string;
  'hub.mode'?: string;
  event?: {
    'hub.event': string;
    'hub.topic': string;
    context: unknown[];
    'context.versionId'?: string;
    'context.priorVersionId'?: string;
  };
}

export class TestSubscriber {
  readonly received: HubMessage[] = [];
  private waiters: { test: (m: HubMessage) => boolean; resolve: (m: HubMessage) => void }[] = [];
  closeCode: number | undefined;

  private constructor(
    readonly ws: WebSocket,
    readonly acknowledge: boolean,
  ) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as HubMessage;
      this.received.push(message);
      if (this.acknowledge && message.event && message.event['hub.event'] !== 'heartbeat') {
        ws.send(JSON.stringify({ id: message.id, timestamp: new Date().toISOString(), status: '200' }));
      }
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(message)) return true;
        w.resolve(message);
        return false;
      });
    });
    ws.on('close', (code) => {
      this.closeCode = code;
    });
  }

  static async connect(endpoint: string, acknowledge = true): Promise<TestSubscriber> {
    const ws = new WebSocket(endpoint);
    const subscriber = new TestSubscriber(ws, acknowledge);
    await subscriber.next((m) => m['hub.mode'] !== undefined);
    return subscriber;
  }

  events(name?: string): HubMessage[] {
    return this.received.filter(
      (m) => m.event && m.event['hub.event'] !== 'heartbeat' && (!name || m.event['hub.event'] === name),
    );
  }

  next(test: (m: HubMessage) => boolean, timeoutMs = 5000): Promise<HubMessage> {
    const already = this.received.find(test);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a hub message')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  nextEvent(name: string, timeoutMs?: number): Promise<HubMessage> {
    return this.next((m) => m.event?.['hub.event'] === name, timeoutMs);
  }

  close(): void {
    this.ws.close();
  }
}
