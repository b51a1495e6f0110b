// Renders the real app (theme, config, routes) on an in-memory router at a given path.
import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router-dom';
import { App } from '../../src/app/App';
import { appRoutes } from '../../src/app/routes';

export const testBaseUrl = 'http://api.test:8103/';

export function renderApp(
  path: string,
  routes: RouteObject[] = appRoutes,
): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(<App config={{ baseUrl: testBaseUrl }} router={router} />);
  return { ...result, router };
}

/** A minimal fetch Response for the calls the app makes (jsdom has no fetch of its own). */
export function fakeResponse(status: number, body: unknown, statusText = ''): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText,
    json: async () => (typeof body === 'string' ? JSON.parse(body) : body),
  } as Response;
}
