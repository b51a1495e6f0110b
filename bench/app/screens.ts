// The screens bench/app visits: the signed-out landing page and sign-in, and every signed-in route of
// SPEC §2 with what shows that the screen is ready (its h1, or a piece of its data).
import type { Page } from 'playwright-core';

export type BenchAccount = 'maria@bloom.example' | 'dr.chen@bloom.example' | 'admin@bloom.example';

export interface BenchScreen {
  readonly name: string;
  readonly path: string;
  readonly signedIn: boolean;
  /** Who is signed in (default Maria, the patient): the care team's screens are Dr. Chen's, the invite the admin's. */
  readonly account?: BenchAccount;
  /** Resolves once the screen shows its data. */
  ready(page: Page): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;

const heading = (name: string | RegExp) => (page: Page) =>
  page.getByRole('heading', { level: 1, name }).waitFor({ timeout: READY_TIMEOUT_MS });

export function benchScreens(ids: {
  labReport: string;
  observation: string;
  patient: string;
}): BenchScreen[] {
  return [
    { name: 'landing', path: '/', signedIn: false, ready: heading('Care that grows with you') },
    { name: 'signin', path: '/signin', signedIn: false, ready: heading('Sign in to Bloom') },
    {
      name: 'home',
      path: '/',
      signedIn: true,
      ready: (page) =>
        page
          .getByRole('region', { name: 'Your pregnancy', exact: true })
          .waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'lab-results',
      path: '/health-record/lab-results',
      signedIn: true,
      ready: (page) => page.getByRole('list', { name: 'Lab results' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'lab-result detail',
      path: `/health-record/lab-results/${ids.labReport}`,
      signedIn: true,
      ready: labResultShown,
    },
    {
      name: 'medications',
      path: '/health-record/medications',
      signedIn: true,
      ready: (page) => page.getByRole('list', { name: 'Medications' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'vaccines',
      path: '/health-record/vaccines',
      signedIn: true,
      ready: (page) =>
        page.getByRole('list', { name: 'Past vaccines' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    { name: 'vitals', path: '/health-record/vitals', signedIn: true, ready: heading('Vitals') },
    {
      name: 'vitals chart (weight)',
      path: '/health-record/vitals/weight',
      signedIn: true,
      ready: vitalsChartShown,
    },
    {
      name: 'Observation detail',
      path: `/Observation/${ids.observation}`,
      signedIn: true,
      // A vital's detail: its value (a weight has no reference range, and empty fields are left out).
      ready: (page) =>
        page.getByText('Value', { exact: true }).first().waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'pregnancy timeline',
      path: '/pregnancy',
      signedIn: true,
      ready: (page) =>
        page.getByRole('list', { name: 'Your care plan' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'kick count',
      path: '/pregnancy/kicks',
      signedIn: true,
      ready: (page) =>
        page.getByRole('button', { name: 'Start counting' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    { name: 'messages', path: '/messages', signedIn: true, ready: heading(/./) },
    { name: 'get-care', path: '/get-care', signedIn: true, ready: heading(/./) },
    {
      name: 'forms',
      path: '/forms',
      signedIn: true,
      ready: (page) =>
        page.getByRole('list', { name: 'Forms to fill in' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'account/profile',
      path: '/account/profile',
      signedIn: true,
      ready: (page) =>
        page.getByRole('textbox', { name: /^First name/ }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'account/provider',
      path: '/account/provider',
      signedIn: true,
      ready: (page) => page.getByRole('region', { name: /^Dr\. / }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    ...careTeamScreens(ids.patient),
  ];
}

/**
 * The care team's screens as Dr. Chen: her home (her patients and, on the same screen, the appointment
 * requests waiting for her), Maria's chart (lab results, appointments), the inbox; and the admin's
 * invite screen with its policy choices loaded.
 */
function careTeamScreens(patient: string): BenchScreen[] {
  const chen = 'dr.chen@bloom.example' as const;
  const chart = `/patients/${patient}`;
  return [
    {
      name: 'care-team home',
      path: '/',
      signedIn: true,
      account: chen,
      ready: (page) =>
        page.getByRole('list', { name: 'Your patients' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'chart lab results',
      path: `${chart}/health-record/lab-results`,
      signedIn: true,
      account: chen,
      ready: (page) => page.getByRole('list', { name: 'Lab results' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'chart appointments',
      path: `${chart}/appointments`,
      signedIn: true,
      account: chen,
      ready: (page) =>
        page
          .getByRole('list', { name: 'Appointments' })
          .or(page.getByText('No appointments'))
          .waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'inbox',
      path: '/inbox',
      signedIn: true,
      account: chen,
      ready: (page) =>
        page.getByRole('list', { name: 'Message threads' }).waitFor({ timeout: READY_TIMEOUT_MS }),
    },
    {
      name: 'admin invite',
      path: '/admin/invite',
      signedIn: true,
      account: 'admin@bloom.example',
      ready: (page) =>
        page
          .getByRole('combobox', { name: 'Access policy' })
          .locator('option', { hasText: 'Bloom clinic staff' })
          .waitFor({ state: 'attached', timeout: READY_TIMEOUT_MS }),
    },
  ];
}

/** The report view's results table has its rows. */
export async function labResultShown(page: Page): Promise<void> {
  await page
    .getByRole('table', { name: 'Results' })
    .getByRole('row')
    .nth(1)
    .waitFor({ timeout: READY_TIMEOUT_MS });
}

/** The vitals chart is drawn: its text alternative counts the measurements and a series line is painted. */
export async function vitalsChartShown(page: Page): Promise<void> {
  await page.getByRole('img', { name: /chart of \d+ measurements/ }).waitFor({ timeout: READY_TIMEOUT_MS });
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[role="img"][aria-label*="chart of"] svg path')].some((path) => {
        // A series line runs through many points; the legend's marks are short strokes.
        const box = (path as SVGPathElement).getBBox();
        return (path.getAttribute('d') ?? '').length > 60 && box.width > 100;
      }),
    undefined,
    { timeout: READY_TIMEOUT_MS },
  );
}
