import { act, screen, waitFor } from '@testing-library/react';
import type { NonIndexRouteObject, RouteObject } from 'react-router-dom';
import { appRoutes } from '../../src/app/routes';
import { renderApp } from './support/renderApp';

describe('SPEC §2 routes', () => {
  it.each(['/no/such/page', '/messages', '/health-record/lab-results', '/signin/extra'])(
    'any other path (%s) redirects to /',
    async (path) => {
      const { router } = renderApp(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Care that grows with you' }),
      ).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/');
    },
  );

  it('/signin shows the sign-in form and /register the registration form', async () => {
    const { router } = renderApp('/signin');
    expect(await screen.findByRole('heading', { name: 'Sign in to Bloom' })).toBeInTheDocument();
    await act(() => router.navigate('/register'));
    expect(await screen.findByRole('heading', { name: 'Register with Bloom' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });

  it.each([
    ['/', 'Bloom · Pregnancy care in one place'],
    ['/signin', 'Sign in · Bloom'],
    ['/register', 'Register · Bloom'],
  ])('gives %s its own document title', async (path, title) => {
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it("SPEC §8 a router-level failure shows 'Unexpected Application Error!'", async () => {
    const root = appRoutes[0] as NonIndexRouteObject;
    const failing: RouteObject[] = [
      {
        ...root,
        children: [
          ...(root.children ?? []),
          {
            path: 'broken-loader',
            loader: () => {
              throw new Error('Loader exploded');
            },
            element: <p>never shown</p>,
          },
        ],
      },
    ];
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const spyWarn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderApp('/broken-loader', failing);
    await waitFor(() => expect(screen.getByText('Unexpected Application Error!')).toBeInTheDocument());
    expect(screen.getByText('Loader exploded')).toBeInTheDocument();
    expect(screen.queryByText('never shown')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the start page' })).toHaveAttribute('href', '/');
    spy.mockRestore();
    spyWarn.mockRestore();
  });
});
