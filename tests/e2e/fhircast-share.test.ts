// E2E in Chromium: two windows (two browser contexts, two sign-ins) of the demo practitioner
// Dr. Chen with "Share context" on, against the real API and its FHIRcast hub (SPEC §7 Remote context
// sync): opening a patient in one brings the other to the same patient within a few seconds, both
// ways and from any screen of the app; the switch's choice is kept per user (key-value store), so the
// second window starts with it on. Closing the tab and signing out close what the window had open.
import type { DiagnosticReport, Practitioner } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { parseSearchRequest } from '../../src/fhir/search/parse';
import { FhircastStore } from '../../src/server/fhircast/store';
import { userTopic } from '../../src/app/session/share/contextSharing';
import { demoPatientId } from './support/demo-sign-in';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();
let mariaId: string;
let aishaId: string;
let topic: string;

beforeAll(async () => {
  const { bloom } = suite;
  mariaId = await demoPatientId(bloom, 'maria@bloom.example');
  aishaId = await demoPatientId(bloom, 'aisha@bloom.example');
  const chen = await bloom.systemRepo.search<Practitioner>(
    parseSearchRequest({ resourceType: 'Practitioner', query: { email: 'dr.chen@bloom.example' } }),
  );
  const chenProfile = chen.resources[0];
  if (!chenProfile) throw new Error('the demo has no Practitioner for dr.chen@bloom.example');
  topic = userTopic(chenProfile);
});

/** Every window's problems, checked inside the tests as well as after each. */
const problems: string[][] = [];

async function signInAsDrChen(): Promise<Page> {
  const window = await suite.signIn('dr-chen');
  problems.push(window.problems);
  return window.page;
}

/** What the hub has open on Dr. Chen's topic, e.g. 'Patient/1' ('' when nothing). */
async function hubContext(): Promise<string> {
  const current = await new FhircastStore(suite.bloom.db).getContext(
    suite.bloom.clinicProjectId ?? '',
    topic,
  );
  const type = current['context.type'];
  const anchor = current.context.find((entry) => entry.resource?.resourceType === type)?.resource;
  return anchor ? `${type}/${anchor.id ?? ''}` : '';
}

async function hubContextBecomes(expected: string): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if ((await hubContext()) === expected) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(await hubContext()).toBe(expected);
}

/** In-app navigation (no reload): the router follows history as it does for a link. */
async function goInApp(page: Page, pathname: string): Promise<void> {
  await page.evaluate((path) => {
    window.history.pushState({}, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, pathname);
}

async function connected(page: Page): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /^Connected$/ })
    .waitFor({ timeout: 10_000 });
}

describe('issue #11 FHIRcast context sharing between two windows (Chromium)', () => {
  it('SPEC §7: opening a patient in one window brings the other to the same patient within seconds', async () => {
    const first = await signInAsDrChen();
    await first.goto(suite.url(`/Patient/${aishaId}`));
    const toggle = first.getByRole('switch', { name: 'Share context' });
    // The first screen of a fresh browser loads its chunks cold: a loaded machine takes its time.
    await toggle.waitFor({ timeout: 90_000 });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await connected(first);

    // The second window: the stored choice turns sharing on there as well.
    const second = await signInAsDrChen();
    await second.goto(suite.url(`/Patient/${aishaId}`));
    expect(await second.getByRole('switch', { name: 'Share context' }).isChecked()).toBe(true);
    await connected(second);

    // The second window moves to a screen that shares nothing (home) and still follows from there.
    await goInApp(second, '/');
    await second.waitForURL(suite.url('/'));
    await hubContextBecomes('');
    await first.goto(suite.url(`/Patient/${mariaId}`));
    await first.getByRole('heading', { level: 1, name: 'Maria Garcia' }).waitFor();
    await second.waitForURL(suite.url(`/Patient/${mariaId}`), { timeout: 5_000 });
    await second.getByRole('heading', { level: 1, name: 'Maria Garcia' }).waitFor();

    // And back the other way, by following a link inside the app (no reload).
    await connected(second);
    const navigatedAt = Date.now();
    await goInApp(second, `/Patient/${aishaId}`);
    await second.getByRole('heading', { level: 1, name: 'Aisha Khan' }).waitFor();
    await first.waitForURL(suite.url(`/Patient/${aishaId}`), { timeout: 5_000 });
    await first.getByRole('heading', { level: 1, name: 'Aisha Khan' }).waitFor();
    // A figure for the report, never asserted: in-app navigation in one window → the other showing it.
    console.log(`FHIRcast follow, navigation to the other window's heading: ${Date.now() - navigatedAt} ms`);

    // Both stay there: no echo sends either window back.
    await first.waitForTimeout(1500);
    expect(first.url()).toBe(suite.url(`/Patient/${aishaId}`));
    expect(second.url()).toBe(suite.url(`/Patient/${aishaId}`));

    // A DiagnosticReport (DiagnosticReport-open with its patient) is followed the same way.
    const reports = await suite.bloom.systemRepo.search<DiagnosticReport>(
      parseSearchRequest({ resourceType: 'DiagnosticReport', query: { subject: `Patient/${mariaId}` } }),
    );
    const reportId = reports.resources[0]?.id;
    if (!reportId) throw new Error('the demo has no DiagnosticReport for Maria');
    await first.goto(suite.url(`/DiagnosticReport/${reportId}`));
    await second.waitForURL(suite.url(`/DiagnosticReport/${reportId}`), { timeout: 5_000 });
    await second.getByRole('tab', { name: 'Details' }).waitFor();
    expect(problems.flat()).toEqual([]);
  }, 240_000);

  it('closing the tab and signing out with sharing on close what the window had open', async () => {
    // The choice stored by the test above (or by an earlier run) is turned on here if needed.
    const page = await signInAsDrChen();
    await page.goto(suite.url(`/Patient/${mariaId}`));
    const toggle = page.getByRole('switch', { name: 'Share context' });
    await toggle.waitFor();
    if (!(await toggle.isChecked())) await toggle.check();
    await connected(page);
    await hubContextBecomes(`Patient/${mariaId}`);

    // Closing the tab: pagehide sends the close with fetch keepalive.
    await page.close({ runBeforeUnload: true });
    await hubContextBecomes('');

    // Signing out: the close goes out while the session can still publish.
    const other = await signInAsDrChen();
    await other.goto(suite.url(`/Patient/${aishaId}`));
    await connected(other);
    await hubContextBecomes(`Patient/${aishaId}`);
    await other.locator('#user-menu-button').click();
    await other.getByRole('menuitem', { name: 'Sign out' }).click();
    // In two steps, so a failure says which one stalled: the sign-out itself (/signout → /), then the landing.
    await other.waitForURL(suite.url('/'));
    await other.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
    await hubContextBecomes('');
    expect(problems.flat()).toEqual([]);
  }, 240_000);

  it("Maria, signed in, cannot read Dr. Chen's FHIRcast context nor steer his screen (SPEC §6)", async () => {
    const page = await signInAsDrChen();
    await page.goto(suite.url(`/Patient/${aishaId}`));
    const toggle = page.getByRole('switch', { name: 'Share context' });
    await toggle.waitFor();
    if (!(await toggle.isChecked())) await toggle.check();
    await connected(page);
    await hubContextBecomes(`Patient/${aishaId}`);

    // From Maria's own signed-in window, with her own token, as any script of hers could.
    const maria = await suite.signIn('maria');
    const answers = await maria.page.evaluate(
      async ({ api, topic, mariaId }) => {
        const login = JSON.parse(localStorage.getItem('@bloom/activeLogin') ?? '{}') as {
          accessToken?: string;
        };
        const headers = { authorization: `Bearer ${login.accessToken ?? ''}` };
        const url = `${api}fhircast/STU3/${encodeURIComponent(topic)}`;
        const read = await fetch(url, { headers });
        const publish = await fetch(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            timestamp: new Date().toISOString(),
            id: crypto.randomUUID(),
            event: {
              'hub.topic': topic,
              'hub.event': 'Patient-open',
              context: [{ key: 'patient', resource: { resourceType: 'Patient', id: mariaId } }],
            },
          }),
        });
        return [
          { status: read.status, body: (await read.json()) as unknown },
          { status: publish.status, body: (await publish.json()) as unknown },
        ];
      },
      { api: suite.bloom.apiBaseUrl, topic, mariaId },
    );
    const refused = (use: string) => ({
      status: 403,
      body: {
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: 'error',
            code: 'forbidden',
            details: { text: `Your access policy does not grant FHIRcast ${use}` },
          },
        ],
      },
    });
    expect(answers).toEqual([refused('read'), refused('create')]);
    // His screen stayed where he was.
    await page.waitForTimeout(1000);
    expect(page.url()).toBe(suite.url(`/Patient/${aishaId}`));
    expect(await hubContext()).toBe(`Patient/${aishaId}`);
    expect(problems.flat()).toEqual([]);
  }, 240_000);
});
