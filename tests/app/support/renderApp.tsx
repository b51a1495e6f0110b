// Renders the real app (theme, config, routes, platform client) on an in-memory router at a given path.
import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { App } from '../../../src/app/App';
import type { AppConfig } from '../../../src/app/config';
import { appRoutes } from '../../../src/app/routes';
import { createAppClient } from '../../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl } from './fakeApi';

export function renderApp(
  path: string,
  routes: RouteObject[] = appRoutes,
  config: Partial<AppConfig> = {},
  options: { lazyClient?: boolean } = {},
): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  // The app's client needs a fetch, as every browser has; tests that do not talk to the API get the
  // fake API with no answers (every request a 404).
  if (typeof globalThis.fetch !== 'function') installFakeApi();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // The client is created up front, as the browser does when a login is stored, so screens render
  // without waiting for its module; `lazyClient` keeps the browser's download-on-first-need path.
  const result = render(
    <App
      config={{ baseUrl: testBaseUrl, ...config }}
      router={{
        element: <RouterProvider router={router} />,
        navigate: (to, options) => void router.navigate(to, options),
      }}
      createClient={options.lazyClient ? undefined : createAppClient}
    />,
  );
  return { ...result, router };
}
