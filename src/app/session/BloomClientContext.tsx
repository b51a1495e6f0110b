// Hands the platform client to every screen, and the signed-in profile as React state that follows the
// client's 'change' and 'profileRefreshed' events (another tab signing out, a refresh, a sign-in).
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { BloomClient, ProfileResource } from '../../client';

const BloomClientContext = createContext<BloomClient | undefined>(undefined);

export function BloomClientProvider({ client, children }: { client: BloomClient; children: ReactNode }) {
  return <BloomClientContext.Provider value={client}>{children}</BloomClientContext.Provider>;
}

export function useBloomClient(): BloomClient {
  const client = useContext(BloomClientContext);
  if (!client) throw new Error('useBloomClient must be used inside BloomClientProvider');
  return client;
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
  const client = useBloomClient();
  const [state, setState] = useState<SessionState>(() => currentState(client));
  useEffect(() => {
    let active = true;
    const update = () => {
      if (!active) return;
      const next = currentState(client);
      // Events often leave the session as it was: keep the same object so nothing re-renders.
      setState((prev) => (prev.profile === next.profile && prev.loading === next.loading ? prev : next));
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
  }, [client]);
  return state;
}
