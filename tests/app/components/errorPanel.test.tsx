import { act, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import type { NonIndexRouteObject, RouteObject } from 'react-router-dom';
import { ErrorBoundary } from '../../../src/app/components/ErrorPanel';
import { retryableLazy } from '../../../src/app/components/retryableLazy';
import { appRoutes } from '../../../src/app/routes';
import { renderApp } from '../support/renderApp';

function Thrower({ message }: { message: string }): never {
  throw new Error(message);
}

function routesWithBrokenScreen(): RouteObject[] {
  const root = appRoutes[0] as NonIndexRouteObject;
  return [
    {
      ...root,
      children: [
        { path: 'broken', element: <Thrower message="Screen exploded" /> },
        ...(root.children ?? []),
      ],
    },
  ];
}

describe("SPEC §2 error panel 'Something went wrong'", () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('catches a screen error inside the page frame (header and footer stay)', () => {
    renderApp('/broken', routesWithBrokenScreen());
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).toHaveTextContent('Screen exploded');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
  });

  it('resets when the location changes', async () => {
    const { router } = renderApp('/broken', routesWithBrokenScreen());
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    await act(() => router.navigate('/signin'));
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign in to Bloom' })).toBeInTheDocument();
    // Going back to the broken screen fails again, and is caught again.
    await act(() => router.navigate('/broken'));
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
  });

  it('keeps showing the error while the location stays the same', () => {
    let shouldThrow = true;
    function Flaky() {
      if (shouldThrow) throw new Error('Still broken');
      return <p>Recovered</p>;
    }
    const { rerender } = render(
      <ErrorBoundary resetKey="/a">
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    shouldThrow = false;
    rerender(
      <ErrorBoundary resetKey="/a">
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    rerender(
      <ErrorBoundary resetKey="/b">
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
    expect(screen.getByText('Recovered')).toBeInTheDocument();
  });

  it("'Try again' renders the screen again in place; while it still fails the panel stays", () => {
    let shouldThrow = true;
    function Flaky() {
      if (shouldThrow) throw new Error('Still broken');
      return <p>Recovered</p>;
    }
    render(
      <ErrorBoundary resetKey="/a">
        <Flaky />
      </ErrorBoundary>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Still broken')).toBeInTheDocument();
    shouldThrow = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Recovered')).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong')).not.toBeInTheDocument();
  });
});

describe('retryableLazy: a screen whose code failed to load loads on the next try', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('a failed load shows the error panel; Try again loads afresh and renders with the given props', async () => {
    function Greeting({ name }: { name: string }) {
      return <p>Hello {name}</p>;
    }
    const load = jest
      .fn<Promise<{ default: typeof Greeting }>, []>()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: Greeting });
    const Lazy = retryableLazy(load);
    render(
      <ErrorBoundary resetKey="/a">
        <Suspense fallback={<p>Loading</p>}>
          <Lazy name="Maria" />
        </Suspense>
      </ErrorBoundary>,
    );
    expect(await screen.findByText('Failed to fetch dynamically imported module')).toBeInTheDocument();
    // No retry by itself (offline, that would download in a loop): only when asked.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(load).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello Maria')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
