// What a live subscription tells its listeners (SPEC §4 live subscriptions, §7 live updates), with
// @medplum/core's SubscriptionEmitter event names and payloads so Medplum apps run unchanged, plus 'gap': the
// server's log no longer reaches back to the last event this client saw, so events may have been missed and
// the app should refetch.
import type { Bundle } from '@medplum/fhirtypes';

export interface SubscriptionEventMap {
  /** The server bound a subscription: its events follow. */
  connect: { type: 'connect'; payload: { subscriptionId: string } };
  /** A subscription is no longer listened to (its last reference was removed, or sign-out). */
  disconnect: { type: 'disconnect'; payload: { subscriptionId: string } };
  error: { type: 'error'; payload: Error };
  /** An event-notification Bundle: entry[0] the SubscriptionStatus, entry[1] the resource (or a DELETE). */
  message: { type: 'message'; payload: Bundle };
  /** Events after the last one seen are lost: the payload is the server's query-status Bundle. */
  gap: { type: 'gap'; payload: Bundle };
  heartbeat: { type: 'heartbeat'; payload: Bundle };
  open: { type: 'open' };
  close: { type: 'close' };
}

export type SubscriptionEventType = keyof SubscriptionEventMap;
export type SubscriptionEvent = SubscriptionEventMap[SubscriptionEventType];
type Listener<K extends SubscriptionEventType> = (event: SubscriptionEventMap[K]) => void;

export class SubscriptionEmitter {
  private readonly criteria: Set<string>;
  private readonly listeners = new Map<SubscriptionEventType, Set<(event: SubscriptionEvent) => void>>();

  constructor(...criteria: string[]) {
    this.criteria = new Set(criteria);
  }

  /** The criteria whose events this emitter carries (all of them for the manager's master emitter). */
  getCriteria(): Set<string> {
    return this.criteria;
  }

  /** @internal */
  _addCriteria(criteria: string): void {
    this.criteria.add(criteria);
  }

  /** @internal */
  _removeCriteria(criteria: string): void {
    this.criteria.delete(criteria);
  }

  addEventListener<K extends SubscriptionEventType>(type: K, listener: Listener<K>): void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener as (event: SubscriptionEvent) => void);
  }

  removeEventListener<K extends SubscriptionEventType>(type: K, listener: Listener<K>): void {
    this.listeners.get(type)?.delete(listener as (event: SubscriptionEvent) => void);
  }

  removeAllListeners(): void {
    this.listeners.clear();
  }

  /** Calls every listener of the event's type; one listener's exception never stops the others. */
  dispatchEvent(event: SubscriptionEvent): void {
    for (const listener of [...(this.listeners.get(event.type) ?? [])]) {
      try {
        listener(event);
      } catch (err) {
        console.error(`Subscription listener for '${event.type}' failed`, err);
      }
    }
  }
}
