// The messages a bound socket receives (SPEC §7 live updates, Medplum-compatible): history Bundles
// whose first entry is a SubscriptionStatus (type handshake, heartbeat or event-notification),
// followed for an event by the resource itself. The event number is the write's seq, unique
// across instances, which the client hands back when it re-binds. A 'gap' is a
// query-status SubscriptionStatus with status error and the code events-missed: refetch.
import crypto from 'node:crypto';
import type { Bundle, BundleEntry, Resource, SubscriptionStatus } from '@medplum/fhirtypes';

export const LIVE_CODE_SYSTEM = 'https://bloom.example/fhir/CodeSystem/live-updates';

function statusBundle(status: SubscriptionStatus, extra: Bundle['entry'] = []): Bundle {
  return {
    resourceType: 'Bundle',
    id: crypto.randomUUID(),
    type: 'history',
    timestamp: new Date().toISOString(),
    entry: [{ resource: status }, ...extra],
  };
}

function status(subscriptionId: string, type: SubscriptionStatus['type'], events = '0'): SubscriptionStatus {
  return {
    resourceType: 'SubscriptionStatus',
    id: crypto.randomUUID(),
    status: 'active',
    type,
    subscription: { reference: `Subscription/${subscriptionId}` },
    eventsSinceSubscriptionStart: events,
  };
}

export function handshakeBundle(subscriptionId: string, logHead: string | undefined): Bundle {
  return statusBundle(status(subscriptionId, 'handshake', logHead ?? '0'));
}

export function heartbeatBundle(subscriptionId: string, lastEvent: string | undefined): Bundle {
  return statusBundle(status(subscriptionId, 'heartbeat', lastEvent ?? '0'));
}

export function eventBundle(
  subscriptionId: string,
  eventNumber: string,
  resource: Resource,
  fhirBase: string,
  deleted = false,
): Bundle {
  const reference = `${resource.resourceType}/${resource.id}`;
  const entry: BundleEntry = deleted
    ? { fullUrl: fhirBase + reference, request: { method: 'DELETE', url: reference } }
    : { fullUrl: fhirBase + reference, resource };
  return statusBundle(
    {
      ...status(subscriptionId, 'event-notification', eventNumber),
      notificationEvent: [{ eventNumber, timestamp: new Date().toISOString(), focus: { reference } }],
    },
    [entry],
  );
}

/** The log no longer reaches back to `lastEventNumber`: events may be missed, so the client refetches. */
export function gapBundle(subscriptionId: string, lastEventNumber: string): Bundle {
  return statusBundle({
    ...status(subscriptionId, 'query-status', lastEventNumber),
    status: 'error',
    error: [
      {
        coding: [{ system: LIVE_CODE_SYSTEM, code: 'events-missed' }],
        text: `Events after ${lastEventNumber} are no longer available; refetch`,
      },
    ],
  });
}
