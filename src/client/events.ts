// The client's events: 'change' when the login changes, 'profileRefreshed' when the session
// details are reloaded, 'offline' when a request fails to reach the server twice, and
// 'resourceChanged' after each write through the client, so caches kept elsewhere (Apollo's) follow it.

export type ClientEventType = 'change' | 'profileRefreshed' | 'offline' | 'resourceChanged';

/** A write through the client: the type written and, when one resource was named, its id. */
export interface ResourceChangedEvent {
  type: 'resourceChanged';
  resourceType: string;
  /** Absent for a create (nothing held names it yet) and a batch, which touch the type's lists. */
  id?: string;
}

export type ClientEvent = { type: Exclude<ClientEventType, 'resourceChanged'> } | ResourceChangedEvent;

export type ClientEventListener = (event: ClientEvent) => void;

export class ClientEventEmitter {
  private readonly listeners = new Map<ClientEventType, Set<ClientEventListener>>();

  addEventListener(type: ClientEventType, listener: ClientEventListener): void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener);
  }

  removeEventListener(type: ClientEventType, listener: ClientEventListener): void {
    this.listeners.get(type)?.delete(listener);
  }

  /** Calls every listener; one listener's exception never stops the others. */
  dispatchEvent(event: ClientEvent): void {
    for (const listener of [...(this.listeners.get(event.type) ?? [])]) {
      try {
        listener(event);
      } catch (err) {
        console.error(`Listener for '${event.type}' failed`, err);
      }
    }
  }
}
