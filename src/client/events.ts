// The client's events: 'change' when the login changes, 'profileRefreshed' when the
// session details are reloaded; 'offline' arrives with the full request pipeline.

export type ClientEventType = 'change' | 'profileRefreshed' | 'offline';

export interface ClientEvent {
  type: ClientEventType;
}

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
