import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { NonIndexRouteObject, RouteObject } from 'react-router-dom';
import {
  MAX_NOTIFICATIONS,
  NotificationsProvider,
  useNotify,
} from '../../../src/app/components/Notifications';
import { appRoutesWith } from '../../../src/app/routes';
import { installFakeApi, maria, storeMariaLogin, type FakeApi } from '../support/fakeApi';
import { renderApp } from '../support/renderApp';

let api: FakeApi;

beforeEach(() => {
  api = installFakeApi();
});

function meAnswer() {
  api.always('GET auth/me', 200, {
    profile: maria,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: { resourceType: 'ProjectMembership', id: 'm1' },
  });
}

const guardedRoutes: RouteObject[] = appRoutesWith([{ path: 'messages', element: <h1>Messages</h1> }]);

describe('SPEC §2 signed-in home and header', () => {
  it("greets the patient by name from the session, offers 'Send Message' (/messages) and a user menu with Sign out", async () => {
    storeMariaLogin();
    meAnswer();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello Maria' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send Message' })).toHaveAttribute('href', '/messages');
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Maria$/ }));
    expect(await screen.findByRole('menuitem', { name: 'Sign out' })).toHaveAttribute('href', '/signout');
    expect(api.sent[0].headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('shows the landing page when signed out', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Care that grows with you' })).toBeInTheDocument();
    expect(api.sent).toEqual([]);
  });
});

describe('the client library downloaded on first need (issue #7 budget), as in the browser', () => {
  it('signed out, the landing page shows without it; /signin then loads it and shows its form', async () => {
    const { router } = renderApp('/', undefined, {}, { lazyClient: true });
    expect(await screen.findByRole('heading', { name: 'Care that grows with you' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Log in' })[0]).toHaveAttribute('href', '/signin');
    await act(() => router.navigate('/signin'));
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeInTheDocument();
    expect(api.sent).toEqual([]);
  });

  it('with a stored login, loads it at once and greets the patient', async () => {
    storeMariaLogin();
    meAnswer();
    renderApp('/', undefined, {}, { lazyClient: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello Maria' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
  });
});

describe('SPEC §2 guard: an unauthenticated session is sent to /', () => {
  it('a signed-in route without a session redirects to /', async () => {
    const { router } = renderApp('/messages', guardedRoutes);
    await screen.findByRole('heading', { name: 'Care that grows with you' });
    expect(router.state.location.pathname).toBe('/');
  });

  it('a signed-in route with a session shows the route', async () => {
    storeMariaLogin();
    meAnswer();
    const { router } = renderApp('/messages', guardedRoutes);
    expect(await screen.findByRole('heading', { name: 'Messages' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/messages');
  });

  it('SPEC §4 a session the server refuses (401, refresh refused) is cleared and the browser goes to /', async () => {
    storeMariaLogin();
    api.always('GET auth/me', 401, {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'login', details: { text: 'Unauthorized' } }],
    });
    api.always('POST oauth2/token', 400, {
      error: 'invalid_grant',
      error_description: 'Invalid refresh token',
    });
    const { router } = renderApp('/messages', guardedRoutes);
    expect(await screen.findByRole('heading', { name: 'Care that grows with you' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(localStorage.getItem('@bloom/activeLogin')).toBeNull();
  });
});

describe('SPEC §2 /signout', () => {
  it('revokes the login on the server, forgets it, says so, and goes to /', async () => {
    storeMariaLogin();
    meAnswer();
    api.once('POST oauth2/logout', 200, {});
    const { router } = renderApp('/signout');
    expect(await screen.findByRole('heading', { name: 'Care that grows with you' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(api.bodiesOf('POST oauth2/logout')).toHaveLength(1);
    expect(localStorage.getItem('@bloom/activeLogin')).toBeNull();
    // The notification stack is a lazy chunk: it shows a moment after the first notification.
    expect(await screen.findByText('You have signed out.')).toBeInTheDocument();
  });

  it('still signs out on this device when the server cannot be reached', async () => {
    storeMariaLogin();
    meAnswer();
    api.unreachable('POST oauth2/logout');
    renderApp('/signout');
    expect(await screen.findByText(/You are signed out on this device/)).toBeInTheDocument();
    expect(localStorage.getItem('@bloom/activeLogin')).toBeNull();
  });
});

describe('SPEC §9 notifications', () => {
  function Notifier() {
    const notify = useNotify();
    return (
      <button
        type="button"
        onClick={() => notify(`Note ${document.querySelectorAll('.MuiAlert-root').length}`)}
      >
        Notify
      </button>
    );
  }

  it(`shows at most ${MAX_NOTIFICATIONS} at once, dropping the oldest, and each can be closed`, async () => {
    render(
      <NotificationsProvider>
        <Notifier />
      </NotificationsProvider>,
    );
    const button = screen.getByRole('button', { name: 'Notify' });
    for (let i = 0; i < 7; i++) fireEvent.click(button);
    const region = screen.getByRole('region', { name: 'Notifications' });
    await waitFor(() => expect(region.querySelectorAll('.MuiAlert-root')).toHaveLength(5));
    expect(region).not.toHaveTextContent('Note 0');
    expect(region).toHaveTextContent('Note 5');
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]);
    expect(region.querySelectorAll('.MuiAlert-root')).toHaveLength(4);
  });

  it('closes a notification by itself after a while', async () => {
    jest.useFakeTimers();
    try {
      render(
        <NotificationsProvider>
          <Notifier />
        </NotificationsProvider>,
      );
      fireEvent.click(screen.getByRole('button', { name: 'Notify' }));
      // The stack's lazy chunk resolves on promises, which fake timers leave alone.
      await act(() => import('../../../src/app/components/NotificationStack'));
      expect(screen.getByText('Note 0')).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(6000));
      expect(screen.queryByText('Note 0')).not.toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });
});

it('appRoutesWith puts the given signed-in routes first and the catch-all last, behind the session guard', () => {
  const extra: RouteObject = { path: 'extra', element: null };
  const root = appRoutesWith([extra])[0] as NonIndexRouteObject;
  const guarded = root.children?.at(-1) as NonIndexRouteObject;
  const screens = (guarded.children?.[0] as NonIndexRouteObject).children ?? [];
  expect(screens[0]).toBe(extra);
  expect(screens.at(-1)?.path).toBe('*');
  return waitFor(() => undefined);
});
