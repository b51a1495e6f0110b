// The app's providers around a router: theme, baseline styles, the start-up configuration, the one
// platform client (its lost session sends the browser to /) and the notifications. The client and Apollo
// (src/graphql) are lazy chunks: the client loads at once only when a login is stored, Apollo is
// provided by the signed-in routes themselves (session/GraphqlBoundary).
import { useEffect, useState } from 'react';
import type { BloomClient } from '../client';
import type { AppRouter } from './appRouter';
import { AppTheme } from './components/AppTheme';
import { AppConfigProvider } from './components/AppConfigContext';
import { NotificationsProvider } from './components/Notifications';
import type { AppConfig } from './config';
import { LocaleFromProfile } from './i18n/LocaleFromProfile';
import { LocaleProvider } from './i18n/LocaleProvider';
import { BloomClientProvider } from './session/BloomClientContext';
import { preloadSignedInGraphql } from './session/GraphqlBoundary';
import {
  ACTIVE_LOGIN_STORAGE_KEY,
  hasStoredLogin,
  lazyClientSource,
  readyClientSource,
  type ClientSource,
} from './session/clientSource';

type CreateClient = (config: AppConfig, onUnauthenticated: () => void) => BloomClient;

export interface AppProps {
  readonly config: AppConfig;
  /** The routes' router: the address bar's in the browser, an in-memory one in tests. */
  readonly router: AppRouter;
  /** Creates the client at once instead of downloading it on first need (component tests). */
  readonly createClient?: CreateClient;
}

export function App({ config, router, createClient }: AppProps) {
  // One client for the page's lifetime. It is not closed on unmount: StrictMode's simulated unmount would
  // stop its cross-tab watch for good, and the page going away ends it anyway.
  const [source] = useState<ClientSource>(() => {
    const onUnauthenticated = () => router.navigate('/', { replace: true });
    if (createClient) {
      const client = createClient(config, onUnauthenticated);
      if (client.getActiveLogin()) preloadSignedInGraphql();
      return readyClientSource(client);
    }
    const created = lazyClientSource(() =>
      import('./session/createAppClient').then((m) => m.createAppClient(config, onUnauthenticated)),
    );
    if (hasStoredLogin()) startSignedIn(created);
    return created;
  });
  useEffect(() => {
    // Signed out with no client yet, another tab signs in: load the client, which picks up that login
    // (once loaded, the client watches other tabs itself).
    const onStorage = (event: StorageEvent) => {
      if (!source.current() && event.key === ACTIVE_LOGIN_STORAGE_KEY && hasStoredLogin())
        startSignedIn(source);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [source]);
  return (
    <LocaleProvider>
      <AppTheme>
        <AppConfigProvider config={config}>
          <BloomClientProvider source={source}>
            <LocaleFromProfile />
            <NotificationsProvider>{router.element}</NotificationsProvider>
          </BloomClientProvider>
        </AppConfigProvider>
      </AppTheme>
    </LocaleProvider>
  );
}

/** A stored login: fetch the client and the GraphQL layer together. */
function startSignedIn(source: ClientSource): void {
  void source.load().catch(() => undefined);
  preloadSignedInGraphql();
}
