// The signed-in frame (SPEC §2 Navigation; §9 768 px): header main navigation, the Health
// Record side menu with the Vitals sub-items, the footer's copyright year, health-record/* → lab-results,
// lazily loaded screens behind the real router and Apollo provider, and a page title per route.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { installFakeApi, maria, storeMariaLogin } from './support/fakeApi';
import { renderApp } from './support/renderApp';

beforeEach(() => {
  const api = installFakeApi();
  storeMariaLogin();
  api.always('GET auth/me', 200, {
    profile: maria,
    project: { resourceType: 'Project', id: 'clinic', name: 'Bloom Clinic' },
    membership: { resourceType: 'ProjectMembership', id: 'm1', profile: { reference: 'Patient/maria-1' } },
  });
  api.always('POST fhir/R4/$graphql', 200, {
    data: { DiagnosticReportConnection: { count: 0, offset: 0, edges: [] } },
  });
});

describe('SPEC §2 signed-in frame', () => {
  it('health-record/ redirects to lab-results, loaded lazily, with its title', async () => {
    const { router } = renderApp('/health-record');
    expect(await screen.findByRole('heading', { level: 1, name: 'Lab Results' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/health-record/lab-results');
    expect(await screen.findByText('No lab results available')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Lab Results · Bloom'));
  });

  it('below 768 px the header links sit behind Menu: Health Record, Messages, Get Care, Forms', async () => {
    renderApp('/health-record/lab-results');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Menu' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => [
      item.textContent,
      item.getAttribute('href'),
    ]);
    expect(items).toEqual([
      ['Health Record', '/health-record'],
      ['Messages', '/messages'],
      ['Get Care', '/get-care'],
      ['Forms', '/forms'],
    ]);
  });

  it('the Health Record menu lists Lab Results, Medications, Vaccines, Vitals with Blood Pressure, Heart Rate, Weight', async () => {
    renderApp('/health-record/lab-results');
    const menu = await screen.findByRole('navigation', { name: 'Health Record' });
    fireEvent.click(within(menu).getByRole('button', { name: 'Health Record menu' }));
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Lab Results', '/health-record/lab-results'],
      ['Medications', '/health-record/medications'],
      ['Vaccines', '/health-record/vaccines'],
      ['Vitals', '/health-record/vitals'],
      ['Blood Pressure', '/health-record/vitals/blood-pressure'],
      ['Heart Rate', '/health-record/vitals/heart-rate'],
      ['Weight', '/health-record/vitals/weight'],
    ]);
  });

  it('the footer carries the copyright line with the current year', async () => {
    renderApp('/health-record/lab-results');
    expect(await screen.findByRole('contentinfo')).toHaveTextContent(`© ${new Date().getFullYear()} Bloom`);
  });

  it('signed out, health-record routes send the browser to /', async () => {
    localStorage.clear();
    const { router } = renderApp('/health-record/vaccines');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('signed in, an unknown route shows "We couldn\'t find that page" inside the frame (signed out it goes to /)', async () => {
    const { router } = renderApp('/no/such/page');
    expect(
      await screen.findByRole('heading', { level: 1, name: "We couldn't find that page" }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/no/such/page');
    await waitFor(() => expect(document.title).toBe('Page not found · Bloom'));
  });
});
