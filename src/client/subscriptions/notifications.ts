// What arrives on /ws/subscriptions-r4 (SPEC §7 live updates; the server's side is
// src/server/live/notification-bundles.ts), sorted for the manager: a pong, an error object, or a
// Bundle whose first entry is a SubscriptionStatus of type handshake, heartbeat, event-notification
// or query-status (the 'gap': status error, code events-missed). Event numbers are the server's
// write numbers, handed back on re-bind as lastEventNumber.
import type { Bundle, OperationOutcome, SubscriptionStatus } from '@medplum/fhirtypes';

export const EVENTS_MISSED = 'events-missed';

export type SocketMessage =
  | { kind: 'pong' }
  | { kind: 'error'; outcome: OperationOutcome | undefined }
  | { kind: 'handshake'; subscriptionId: string; position: string | undefined; bundle: Bundle }
  | { kind: 'heartbeat'; subscriptionId: string; bundle: Bundle }
  | { kind: 'event'; subscriptionId: string; eventNumber: string | undefined; bundle: Bundle }
  | { kind: 'gap'; subscriptionId: string; bundle: Bundle }
  /** JSON that is none of the above: ignored with a warning. */
  | { kind: 'unknown'; value: unknown };

function subscriptionIdOf(status: SubscriptionStatus): string {
  return status.subscription?.reference?.split('/').pop() ?? '';
}

function isGap(status: SubscriptionStatus): boolean {
  return (
    status.type === 'query-status' &&
    status.status === 'error' &&
    (status.error ?? []).some((e) => e.coding?.some((c) => c.code === EVENTS_MISSED))
  );
}

/** Throws a SyntaxError for text that is not JSON. */
export function parseSocketMessage(data: unknown): SocketMessage {
  const text = typeof data === 'string' ? data : String(data);
  const value = JSON.parse(text) as Record<string, unknown>;
  if (value?.type === 'pong') return { kind: 'pong' };
  if (value?.type === 'error') return { kind: 'error', outcome: value.payload as OperationOutcome };
  const bundle = value as unknown as Bundle;
  const status = bundle?.resourceType === 'Bundle' ? bundle.entry?.[0]?.resource : undefined;
  if (status?.resourceType !== 'SubscriptionStatus') return { kind: 'unknown', value };
  const subscriptionId = subscriptionIdOf(status);
  switch (status.type) {
    case 'handshake':
      return { kind: 'handshake', subscriptionId, position: status.eventsSinceSubscriptionStart, bundle };
    case 'heartbeat':
      return { kind: 'heartbeat', subscriptionId, bundle };
    case 'event-notification':
      return {
        kind: 'event',
        subscriptionId,
        eventNumber: status.notificationEvent?.at(-1)?.eventNumber,
        bundle,
      };
    default:
      return isGap(status) ? { kind: 'gap', subscriptionId, bundle } : { kind: 'unknown', value };
  }
}
