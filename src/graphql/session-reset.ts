// Another person's session must not see the previous one's answers: when the signed-in profile
// changes (sign-out, switching login, another tab), the Apollo cache is emptied. Token renewals keep
// the profile and keep the cache.
import type { ApolloClient } from '@apollo/client';
import type { ClientEventListener, ClientEventType } from '../client/events';

export interface ProfileChangeSource {
  getActiveLogin(): { profile?: { reference?: string } } | undefined;
  addEventListener(type: ClientEventType, listener: ClientEventListener): void;
  removeEventListener(type: ClientEventType, listener: ClientEventListener): void;
}

/** Empties `apollo`'s store whenever the active profile changes; returns the unsubscribe. */
export function clearCacheOnProfileChange(source: ProfileChangeSource, apollo: ApolloClient): () => void {
  let profile = source.getActiveLogin()?.profile?.reference;
  const listener: ClientEventListener = () => {
    const next = source.getActiveLogin()?.profile?.reference;
    if (next !== profile) {
      profile = next;
      // Signed out: just forget. Another person: forget and re-run the screens' active queries.
      void (next === undefined ? apollo.clearStore() : apollo.resetStore());
    }
  };
  source.addEventListener('change', listener);
  return () => source.removeEventListener('change', listener);
}
