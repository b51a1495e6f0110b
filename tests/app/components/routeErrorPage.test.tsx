import { act, screen } from '@testing-library/react';
import { renderApp } from '../support/renderApp';

// The page frame's header failing (outside every screen's error panel), as when its code cannot load.
let mockHeaderFails = true;
jest.mock('../../../src/app/components/Header', () => ({
  Header: () => {
    if (mockHeaderFails) throw new Error('Header exploded');
    return <header>Bloom</header>;
  },
}));

describe("SPEC §2, SPEC §8 router-level fallback 'Unexpected Application Error!'", () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => {
    mockHeaderFails = true;
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => consoleError.mockRestore());

  it('replaces the page frame when it fails, with the error and a way home', async () => {
    renderApp('/signin');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Header exploded');
    expect(screen.getByRole('link', { name: 'Back to the start page' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });

  it('renders the frame again once the location changes', async () => {
    const { router } = renderApp('/signin');
    await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' });
    mockHeaderFails = false;
    await act(() => router.navigate('/register'));
    expect(await screen.findByRole('heading', { name: 'Register with Bloom' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.queryByText('Unexpected Application Error!')).not.toBeInTheDocument();
  });
});
