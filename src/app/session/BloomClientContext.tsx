// Hands the platform client to every screen, and the signed-in profile as React state that follows the
// client's 'change' and 'profileRefreshed' events (another tab signing out, a refresh, a sign-in).
// The client may still be downloading (session/clientSource): screens that need it suspend until it
// is there; the session reads as signed out when no client was ever needed (the landing page).
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { BloomClient, ProfileResource } from '../../client';
import { readyClientSource, type ClientSource } from './clientSource';

const ClientSourceContext = createContext<ClientSource | undefined>(undefined);

export function BloomClientProvider(props: { client: BloomClient; children: ReactNode }): ReactNode;
export function BloomClientProvider(props: { source: ClientSource; children: ReactNode }): ReactNode;
export function BloomClientProvider({
  client,
  source,
  children,
}: {
  client?: BloomClient;
  source?: ClientSource;
  children: ReactNode;
}) {
  const [value] = useState<ClientSource>(() => source ?? readyClientSource(client as BloomClient));
  return <ClientSourceContext.Provider value={value}>{children}</ClientSourceContext.Provider>;
}

function useClientSource(): ClientSource {
  const source = useContext(ClientSourceContext);
  if (!source) throw new Error('useBloomClient must be used inside BloomClientProvider');
  return source;
}

/** The platform client; suspends while its library downloads. */
export function useBloomClient(): BloomClient {
  const source = useClientSource();
  const client = source.current();
  if (client) return client;
  // Suspends the screen until the client is there (a thrown promise, as data libraries suspend: use()
  // would insist on being called again on the render after the suspension, when the client is there).
  throw source.load();
}

/** The platform client if its library has loaded, without suspending (for pieces around every route,
 * such as context sharing, that must not make the signed-out landing page download it). */
export function useLoadedBloomClient(): BloomClient | undefined {
  const source = useClientSource();
  return useSyncExternalStore(source.subscribe, source.current);
}

export interface SessionState {
  /** True while a stored login's session details are still loading. */
  readonly loading: boolean;
  /** The signed-in profile (Patient, Practitioner...), undefined when signed out. */
  readonly profile: ProfileResource | undefined;
}

function currentState(client: BloomClient): SessionState {
  const profile = client.getProfile();
  return { profile, loading: profile === undefined && client.getActiveLogin() !== undefined };
}

export function useSession(): SessionState {
  const source = useClientSource();
  const client = useSyncExternalStore(source.subscribe, source.current);
  const clientLoading = useSyncExternalStore(source.subscribe, source.loading);
  const [state, setState] = useState<SessionState>(() =>
    client ? currentState(client) : { profile: undefined, loading: clientLoading },
  );
  useEffect(() => {
    // Events often leave the session as it was: keep the same object so nothing re-renders.
    const settle = (next: SessionState) =>
      setState((prev) => (prev.profile === next.profile && prev.loading === next.loading ? prev : next));
    if (!client) {
      settle({ profile: undefined, loading: clientLoading });
      return undefined;
    }
    let active = true;
    const update = () => {
      if (active) settle(currentState(client));
    };
    client.addEventListener('change', update);
    client.addEventListener('profileRefreshed', update);
    // A stored login from an earlier page load: wait for its session, or for it to fail.
    client.getProfileAsync().then(update, () => {
      if (active) setState({ profile: undefined, loading: false });
    });
    update();
    return () => {
      active = false;
      client.removeEventListener('change', update);
      client.removeEventListener('profileRefreshed', update);
    };
  }, [client, clientLoading]);
  return state;
}
