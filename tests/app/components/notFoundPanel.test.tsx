// The shared 'Not found' panel (/:resourceType with an unknown type; reused for unknown routes).
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { NotFoundPanel } from '../../../src/app/components/NotFoundPanel';

describe('NotFoundPanel', () => {
  it('names itself by its heading, says what was missing and links home', () => {
    render(
      <MemoryRouter>
        <NotFoundPanel what='The resource type "Foo"' />
      </MemoryRouter>,
    );
    expect(screen.getByRole('region', { name: 'Not found' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Not found' })).toBeInTheDocument();
    expect(screen.getByText('The resource type "Foo" does not exist here.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('has a generic text when nothing is named', () => {
    render(
      <MemoryRouter>
        <NotFoundPanel />
      </MemoryRouter>,
    );
    expect(screen.getByText('There is nothing at this address.')).toBeInTheDocument();
  });
});
