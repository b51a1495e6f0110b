import { fireEvent, screen, within } from '@testing-library/react';
import { heroImageAlt } from '../../../../src/app/features/landing/LandingPage';
import { renderApp } from '../../support/renderApp';

describe('SPEC §2 landing page (/)', () => {
  it('shows the header, hero text, an illustration with alt text, and the footer landmarks', () => {
    renderApp('/');
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Bloom home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('heading', { level: 1, name: 'Care that grows with you' })).toBeInTheDocument();
    const image = screen.getByRole('img', { name: heroImageAlt });
    expect(image).toHaveAttribute('src', '/bloom-hero.svg');
    expect(heroImageAlt.length).toBeGreaterThan(20);
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it('leads Log in to /signin and Sign up to /register, in the header and in the hero', () => {
    renderApp('/');
    const logIns = screen.getAllByRole('link', { name: 'Log in' });
    const signUps = screen.getAllByRole('link', { name: 'Sign up' });
    expect(logIns).toHaveLength(2);
    expect(signUps).toHaveLength(2);
    logIns.forEach((link) => expect(link).toHaveAttribute('href', '/signin'));
    signUps.forEach((link) => expect(link).toHaveAttribute('href', '/register'));
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Sign up' })).toBeInTheDocument();
  });

  it('follows Sign up to the registration form', async () => {
    renderApp('/');
    fireEvent.click(screen.getAllByRole('link', { name: 'Sign up' })[0]);
    expect(await screen.findByRole('heading', { name: 'Register with Bloom' })).toBeInTheDocument();
  });
});

describe('SPEC §2 footer: copyright line with the current year', () => {
  afterEach(() => jest.useRealTimers());

  it('shows the current year', () => {
    renderApp('/');
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Bloom`);
  });

  it('computes the year when it renders, not when it was built', () => {
    jest.useFakeTimers({
      now: new Date('2031-03-04T10:00:00Z'),
      doNotFake: ['setTimeout', 'queueMicrotask'],
    });
    renderApp('/');
    expect(screen.getByRole('contentinfo')).toHaveTextContent('© 2031 Bloom');
  });
});
