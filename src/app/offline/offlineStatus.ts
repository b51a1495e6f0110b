// Whether the signed-in screens are showing what the device kept rather than fresh answers: the
// browser says it is offline, or the service worker answered a read from its store (a network that
// fails while the browser thinks it is online). The latest kept answer's time is the "last updated".
import { isSwAnswerMessage } from '../sw/messages';

export interface OfflineStatus {
  /** The browser reports no network. */
  readonly browserOffline: boolean;
  /** The latest GraphQL read was answered from the device, not the network. */
  readonly answeredFromDevice: boolean;
  /** When the newest answer shown from the device was received (ISO time). */
  readonly lastUpdated?: string;
}

type Listener = () => void;

export interface OfflineStatusStore {
  get(): OfflineStatus;
  subscribe(listener: Listener): () => void;
  /** A message from the service worker (other messages are ignored). */
  receive(data: unknown): void;
  setBrowserOffline(offline: boolean): void;
}

export function createOfflineStatusStore(initiallyOffline: boolean): OfflineStatusStore {
  let status: OfflineStatus = { browserOffline: initiallyOffline, answeredFromDevice: false };
  const listeners = new Set<Listener>();
  const update = (next: OfflineStatus) => {
    status = next;
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    receive(data) {
      if (!isSwAnswerMessage(data)) return;
      if (data.source === 'network') {
        if (status.answeredFromDevice) update({ ...status, answeredFromDevice: false });
        return;
      }
      const newer =
        data.storedAt && (!status.lastUpdated || data.storedAt > status.lastUpdated)
          ? data.storedAt
          : status.lastUpdated;
      update({ ...status, answeredFromDevice: true, lastUpdated: newer });
    },
    setBrowserOffline(offline) {
      if (offline !== status.browserOffline) update({ ...status, browserOffline: offline });
    },
  };
}

export function isShowingOffline(status: OfflineStatus): boolean {
  return status.browserOffline || status.answeredFromDevice;
}

let pageStore: OfflineStatusStore | undefined;

/** The page's one store, listening to the browser and the service worker from its first use. */
export function pageOfflineStatus(): OfflineStatusStore {
  if (!pageStore) {
    const store = createOfflineStatusStore(typeof navigator !== 'undefined' && navigator.onLine === false);
    window.addEventListener('online', () => store.setBrowserOffline(false));
    window.addEventListener('offline', () => store.setBrowserOffline(true));
    navigator.serviceWorker?.addEventListener('message', (event) => store.receive(event.data));
    pageStore = store;
  }
  return pageStore;
}
