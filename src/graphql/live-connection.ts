// When the GraphQL subscription socket (re)connects, so nothing is missed across a dropped
// connection: events published while the socket was down are never replayed by graphql-ws, so a
// screen that shows live data refetches whenever this fires. Kept apart from the socket code so the
// app's main bundle carries only this small listener list, not graphql-ws.
import { createContext, useContext } from 'react';

export type LiveConnectionListener = () => void;

export class LiveConnection {
  private readonly listeners = new Set<LiveConnectionListener>();

  /** Calls `listener` after every connection of the socket, the first included; returns the unsubscribe. */
  onConnected(listener: LiveConnectionListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Called by the socket client on each acknowledged connection. */
  connected(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

export const LiveConnectionContext = createContext<LiveConnection | undefined>(undefined);

/** The app's live connection, or undefined outside GraphqlProvider (tests with MockedProvider). */
export function useLiveConnection(): LiveConnection | undefined {
  return useContext(LiveConnectionContext);
}
