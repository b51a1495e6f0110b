import { act, screen, waitFor } from '@testing-library/react';
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
});
