import { act, render, screen } from '@testing-library/react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { browserAppRouter } from '../../src/app/appRouter';

function Where() {
  return <p>at {useLocation().pathname}</p>;
}

const routes = [
  {
    path: '/',
    element: <Outlet />,
    children: [
      { index: true, element: <Link to="/b">to b</Link> },
      { path: 'b', element: <Where /> },
    ],
  },
];

describe("the browser's router (address bar, no data router)", () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));

  it('renders the route of the address bar and follows links', () => {
    render(browserAppRouter(routes).element);
    act(() => screen.getByRole('link', { name: 'to b' }).click());
    expect(screen.getByText('at /b')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/b');
  });

  it('navigates from outside the routes, replacing the current entry', () => {
    window.history.replaceState(null, '', '/b');
    const router = browserAppRouter(routes);
    render(router.element);
    const entries = window.history.length;
    act(() => router.navigate('/', { replace: true }));
    expect(screen.getByRole('link', { name: 'to b' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/');
    expect(window.history.length).toBe(entries);
  });
});
