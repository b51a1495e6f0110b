// A WebSocket to the endpoint the hub gave a subscription (SPEC §7: each non-heartbeat
// message is acknowledged; §8 'WebSocket error'). Heartbeats are answered by nothing and reported to
// nobody; every other event is acknowledged with its id, then handed to the listeners.
import { FHIRCAST_MESSAGES } from '../../fhir/fhircast';
import type { FhircastMessage, FhircastSubscriptionRequest } from '../../fhir/fhircast';
import { badRequest, OperationOutcomeError } from '../../fhir/outcomes';

/** The part of the WHATWG WebSocket used here (browsers' own, or the `ws` package in Node). */
export interface WebSocketLike {
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'error', listener: (event: unknown) => void): void;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

export interface FhircastConnectionHandlers {
  onMessage?: (message: FhircastMessage) => void;
  onOpen?: () => void;
  onClose?: () => void;
  /** Called with Error('WebSocket error') when the socket fails. */
  onError?: (error: Error) => void;
}

export const HEARTBEAT_EVENT = 'heartbeat';

export class FhircastConnection {
  private readonly socket: WebSocketLike;

  constructor(
    readonly request: FhircastSubscriptionRequest,
    handlers: FhircastConnectionHandlers,
    createSocket: WebSocketFactory,
  ) {
    const endpoint = request.endpoint;
    if (typeof endpoint !== 'string' || !endpoint.startsWith('ws')) {
      throw new OperationOutcomeError(badRequest(FHIRCAST_MESSAGES.endpoint));
    }
    this.socket = createSocket(endpoint);
    this.socket.addEventListener('open', () => handlers.onOpen?.());
    this.socket.addEventListener('close', () => handlers.onClose?.());
    this.socket.addEventListener('error', () => handlers.onError?.(new Error('WebSocket error')));
    this.socket.addEventListener('message', (event) => {
      const message = parseMessage(event.data);
      // Hub control messages (subscription confirmations, denials) carry no event.
      if (!message?.event) return;
      if ((message.event['hub.event'] as string) === HEARTBEAT_EVENT) return;
      this.socket.send(
        JSON.stringify({ id: message.id, timestamp: new Date().toISOString(), status: '200' }),
      );
      handlers.onMessage?.(message);
    });
  }

  disconnect(): void {
    this.socket.close();
  }
}

function parseMessage(data: unknown): FhircastMessage | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    return JSON.parse(data) as FhircastMessage;
  } catch {
    return undefined;
  }
}

/** The environment's WebSocket (browsers, Node 22+); Node 20 callers pass one (e.g. from `ws`). */
export function defaultWebSocketFactory(): WebSocketFactory {
  const Ctor = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  return (url) => {
    if (!Ctor) throw new Error('WebSocket error');
    return new Ctor(url);
  };
}
