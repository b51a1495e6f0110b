// The shell's shared pieces show no English in Spanish (the scan: ../support/untranslated.ts): the page
// frame around the error panel (skip link, header, footer), the session spinner, a list's load error
// with Try again (the server-unreachable message), the red error alert, the side menu collapsed and
// open, a notice with its close button, a status pill and the clinic's phone line.
import { fireEvent, render, screen } from '@testing-library/react';
import type { NonIndexRouteObject, RouteObject } from 'react-router-dom';
import { MemoryRouter } from 'react-router-dom';
import { errorOutcome } from '../../../src/app/api/errorOutcome';
import { CallClinic } from '../../../src/app/components/ClinicContact';
import { ErrorAlert } from '../../../src/app/components/ErrorAlert';
import { LoadError } from '../../../src/app/components/ListStates';
import NotificationStack from '../../../src/app/components/NotificationStack';
import { SideMenu } from '../../../src/app/components/SideMenu';
import { StatusBadge } from '../../../src/app/components/StatusBadge';
import { shellStrings } from '../../../src/app/components/strings';
import { activeLocale, LOCALE_STORAGE_KEY, translate } from '../../../src/app/i18n/i18n';
import { appRoutes } from '../../../src/app/routes';
import { SessionLoading } from '../../../src/app/session/RequireSession';
import { renderApp } from '../support/renderApp';
import { describeUntranslated, type ScreenCase } from '../support/untranslated';

/** The fixtures' data: the screen's own error text, the clinic's name and phone number. */
const SAME_IN_BOTH = ['Screen exploded', 'Bloom Clinic', '+1-217-555-0100'];

function Thrower(): never {
  throw new Error('Screen exploded');
}

function routesWithBrokenScreen(): RouteObject[] {
  const root = appRoutes[0] as NonIndexRouteObject;
  return [{ ...root, children: [{ path: 'broken', element: <Thrower /> }, ...(root.children ?? [])] }];
}

/** The spinner, a list's error with Try again, the red alert: the message a failed fetch gets. */
function SharedStates() {
  const unreachable = errorOutcome(new TypeError('Failed to fetch')).issue?.[0]?.details?.text ?? '';
  return (
    <>
      <SessionLoading />
      <LoadError error={new Error(unreachable)} onRetry={() => undefined} />
      <ErrorAlert message={unreachable} />
      <StatusBadge status="booked" />
      <CallClinic clinic={{ name: 'Bloom Clinic', phone: '+1-217-555-0100' }} />
    </>
  );
}

/** The side menu (collapsed below 768 px, as jsdom is) beside a notice with its close button. */
function renderMenuAndNotice() {
  render(
    <MemoryRouter>
      <SideMenu
        label={translate(shellStrings.healthRecord)}
        items={[{ label: translate(shellStrings.messages), to: '/messages' }]}
      />
      <NotificationStack
        items={[{ id: 1, message: translate(shellStrings.languageNotSaved), severity: 'warning' }]}
        onClose={() => undefined}
      />
    </MemoryRouter>,
  );
}

const SCREENS: readonly ScreenCase[] = [
  {
    name: 'the page frame with the error panel (skip link, header, footer)',
    render: () => {
      // Signed-out pages start in the device's last choice.
      localStorage.setItem(LOCALE_STORAGE_KEY, activeLocale());
      renderApp('/broken', routesWithBrokenScreen());
    },
    ready: () => screen.findByRole('contentinfo'),
  },
  {
    name: 'session spinner, load error with Try again, error alert, status, clinic phone',
    render: () => render(<SharedStates />),
    ready: () => screen.findAllByRole('alert'),
  },
  {
    name: 'the side menu collapsed, a notice with its close button',
    render: renderMenuAndNotice,
    ready: () => screen.findByRole('navigation'),
  },
  {
    name: 'the side menu open, a notice with its close button',
    render: renderMenuAndNotice,
    ready: async () => {
      fireEvent.click(await screen.findByRole('button', { expanded: false }));
      return screen.findByRole('link');
    },
  },
];

let consoleError: jest.SpyInstance;
beforeAll(() => {
  // The error panel logs what it caught.
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterAll(() => consoleError.mockRestore());

describeUntranslated('the shared pieces show no English in Spanish', SCREENS, SAME_IN_BOTH);
