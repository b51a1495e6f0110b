// A real WebSocket client for the live-update tests: collects every message and waits for the
// next one that satisfies a predicate (messages already received count, in order).
import type { Bundle, SubscriptionStatus } from '@medplum/fhirtypes';
import WebSocket from 'ws';

export type LiveMessage = Record<string, unknown>;

export class LiveSocket {
  readonly messages: LiveMessage[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as LiveMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    ws.on('close', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static open(url: string): Promise<LiveSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(new LiveSocket(ws)));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  bind(token: string, lastEventNumber?: string): void {
    this.send({ type: 'bind-with-token', payload: lastEventNumber ? { token, lastEventNumber } : { token } });
  }

  /** The next message (after those already taken) that satisfies `test`; skipped ones are dropped. */
  async next(test: (message: LiveMessage) => boolean, timeoutMs = 5000): Promise<LiveMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.messages.length) {
        const message = this.messages[this.cursor++];
        if (test(message)) return message;
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error('socket closed while waiting');
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-3))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}

export function statusOf(message: LiveMessage): SubscriptionStatus | undefined {
  const bundle = message as unknown as Bundle;
  const first = bundle.resourceType === 'Bundle' ? bundle.entry?.[0]?.resource : undefined;
  return first?.resourceType === 'SubscriptionStatus' ? first : undefined;
}

/** A predicate for a status Bundle of this type (and subscription, when given). */
export function isStatus(type: string, subscriptionId?: string) {
  return (message: LiveMessage): boolean => {
    const status = statusOf(message);
    return (
      status?.type === type &&
      (!subscriptionId || status.subscription?.reference === `Subscription/${subscriptionId}`)
    );
  };
}

export function focusOf(message: LiveMessage): string | undefined {
  return statusOf(message)?.notificationEvent?.[0]?.focus?.reference;
}

export function eventNumberOf(message: LiveMessage): string | undefined {
  return statusOf(message)?.notificationEvent?.[0]?.eventNumber;
}

export function isError(message: LiveMessage): boolean {
  return message.type === 'error';
}

export function errorText(message: LiveMessage): string | undefined {
  const payload = message.payload as { issue?: { details?: { text?: string } }[] } | undefined;
  return payload?.issue?.[0]?.details?.text;
}
