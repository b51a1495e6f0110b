// The shared not-found panel (/:resourceType with an unknown type; reused for unknown routes), in words
// for a patient, and a mistyped one-segment address answered without the search table's code.
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { createMemoryRouter, MemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { searchTableRoutes } from '../../../src/app/features/search-table/searchTableRoutes';
import { NotFoundPanel } from '../../../src/app/components/NotFoundPanel';
import { BloomClientProvider } from '../../../src/app/session/BloomClientContext';
import { createAppClient } from '../../../src/app/session/createAppClient';
import { installFakeApi, testBaseUrl } from '../support/fakeApi';

describe('NotFoundPanel', () => {
  it('names itself by its heading, says what was missing and links home', () => {
    render(
      <MemoryRouter>
        <NotFoundPanel what='The resource type "Foo"' />
      </MemoryRouter>,
    );
    expect(screen.getByRole('region', { name: "We couldn't find that page" })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: "We couldn't find that page" })).toBeInTheDocument();
    expect(screen.getByText('The resource type "Foo" does not exist here.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('speaks to the patient when nothing is named: what may have happened and where to go', () => {
    render(
      <MemoryRouter>
        <NotFoundPanel />
      </MemoryRouter>,
    );
    expect(screen.getByText(/The address may have a typo, or the page may have moved/)).toBeInTheDocument();
    expect(document.title).toBe('Page not found · Bloom');
  });

  it('a mistyped address is answered at once, without loading the search table; a type name loads it', () => {
    const router = createMemoryRouter(searchTableRoutes, { initialEntries: ['/helth-record'] });
    const { unmount } = render(<RouterProvider router={router} />);
    // Rendered in the same pass: no lazy chunk (and no Suspense) stood in between.
    expect(screen.getByRole('heading', { level: 1, name: "We couldn't find that page" })).toBeInTheDocument();
    unmount();
    const typeRouter = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <Suspense fallback={<p>Loading the routes</p>}>
              <Outlet />
            </Suspense>
          ),
          children: searchTableRoutes,
        },
      ],
      { initialEntries: ['/Patient'] },
    );
    installFakeApi();
    const client = createAppClient({ baseUrl: testBaseUrl }, () => undefined);
    render(
      <BloomClientProvider client={client}>
        <RouterProvider router={typeRouter} />
      </BloomClientProvider>,
    );
    // The table's route is mounted at once (its data asked for) and waits for the table's chunk.
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: "We couldn't find that page" })).not.toBeInTheDocument();
  });
});
