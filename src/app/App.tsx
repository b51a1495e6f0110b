// The app's providers around a router: theme, baseline styles, the start-up configuration, the one
// platform client (its lost session sends the browser to /) and the notifications. Apollo (src/graphql)
// is provided by the signed-in routes themselves, as a lazy chunk (session/GraphqlBoundary).
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { useState } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import type { BloomClient } from '../client';
import { AppConfigProvider } from './components/AppConfigContext';
import { NotificationsProvider } from './components/Notifications';
import type { AppConfig } from './config';
import { BloomClientProvider } from './session/BloomClientContext';
import { preloadSignedInGraphql } from './session/GraphqlBoundary';
import { createAppClient } from './session/createAppClient';
import { theme } from './theme';

export interface AppProps {
  readonly config: AppConfig;
  readonly router: ReturnType<typeof createBrowserRouter>;
}

export function App({ config, router }: AppProps) {
  // One client for the page's lifetime. It is not closed on unmount: StrictMode's simulated unmount would
  // stop its cross-tab watch for good, and the page going away ends it anyway.
  const [client] = useState<BloomClient>(() => {
    const created = createAppClient(config, () => void router.navigate('/', { replace: true }));
    if (created.getActiveLogin()) preloadSignedInGraphql();
    return created;
  });
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <AppConfigProvider config={config}>
        <BloomClientProvider client={client}>
          <NotificationsProvider>
            <RouterProvider router={router} />
          </NotificationsProvider>
        </BloomClientProvider>
      </AppConfigProvider>
    </ThemeProvider>
  );
}
