// Generic resource pages in Chromium against the real API seeded with the demo clinic and the
// built app (SPEC §2 Links, §5 per-field server issues, §6 access): Dr. Chen opens Maria's Patient page
// (fields by definition, JSON, history with a version page), creates a Patient through /Patient/new
// (a bad birth date refused under its field first), and Maria opening Aisha's record gets the
// not-found panel. axe runs on each screen and fails on critical/serious violations.
import type { DiagnosticReport, Patient } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { parseSearchRequest } from '../../src/fhir/search/parse';
import { demoPatientId } from './support/demo-sign-in';
import { useDemoSuite, type DemoAccountKey } from './support/demo-suite';
import { seriousAxeViolations, sidewaysOverflow } from './support/patient-session';

const suite = useDemoSuite();
let page: Page;
let mariaId: string;
let aishaId: string;

beforeAll(async () => {
  mariaId = await demoPatientId(suite.bloom, 'maria@bloom.example');
  aishaId = await demoPatientId(suite.bloom, 'aisha@bloom.example');
});

async function signIn(account: DemoAccountKey, width = 1280): Promise<void> {
  ({ page } = await suite.signIn(account, width));
}

async function expectAccessible(): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

function field(label: string) {
  return page.locator('dl').first().locator(`dt:text-is("${label}") + dd`);
}

describe('issue #9 generic resource pages (Chromium)', () => {
  it.each([1280, 375])(
    'SPEC §2: Dr. Chen opens /Patient/{maria} at %i px: fields by definition, links, JSON, history, a version',
    async (width) => {
      await signIn('dr-chen', width);
      await page.goto(suite.url(`/Patient/${mariaId}`));
      await page.getByRole('heading', { level: 1, name: 'Maria Garcia' }).waitFor();
      expect(await page.title()).toBe('Maria Garcia · Bloom');
      await expect(field('Birth Date').textContent()).resolves.toMatch(/\d{4}/);
      await expect(field('Gender').textContent()).resolves.toBe('female');
      await expect(field('Address').textContent()).resolves.toContain(
        '1450 Maple Street, Apt 3B, Springfield, IL 62704',
      );
      await expect(field('Active').textContent()).resolves.toBe('Yes');
      // A backbone element as a nested list, a reference as a link to /{reference}.
      await expect(field('Communication').locator('dt').allTextContents()).resolves.toEqual(
        expect.arrayContaining(['Language', 'Preferred']),
      );
      const gp = field('General Practitioner').getByRole('link');
      expect(await gp.getAttribute('href')).toMatch(/^\/Practitioner\/[A-Za-z0-9\-.]+$/);
      await expectAccessible();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      await page.getByRole('tab', { name: 'JSON' }).click();
      const json = JSON.parse(
        (await page.getByRole('tabpanel').locator('pre').textContent()) ?? '',
      ) as Patient;
      expect(json).toMatchObject({ resourceType: 'Patient', id: mariaId, gender: 'female' });

      await page.getByRole('tab', { name: 'History' }).click();
      const versions = page.getByRole('table', { name: 'Versions' });
      const firstVersion = versions.getByRole('row').nth(1).getByRole('link').first();
      await firstVersion.waitFor();
      expect(await versions.getByRole('row').count()).toBeGreaterThanOrEqual(2);
      await expectAccessible();
      await firstVersion.click();
      await page.waitForURL(/\/Patient\/[^/]+\/_history\/[^/]+$/);
      await page.getByText('You are viewing an earlier version').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Maria Garcia' }).waitFor();
    },
    90_000,
  );

  it('SPEC §5: /Patient/new refuses a bad birth date under its field, then creates and opens the Patient', async () => {
    await signIn('dr-chen');
    await page.goto(suite.url('/Patient/new'));
    await page.getByRole('heading', { level: 1, name: 'New Patient' }).waitFor();
    await page.getByRole('textbox', { name: 'Birth Date' }).fill('14 March 1990');
    // A required binding is offered as its codes (ValueSet/$expand).
    await page.getByRole('combobox', { name: 'Gender' }).click();
    await page.getByRole('option', { name: 'Female' }).click();
    await page
      .getByRole('textbox', { name: 'Other fields (JSON)' })
      .fill('{"name": [{"given": ["Rosa"], "family": "Delgado"}]}');
    await page.getByRole('button', { name: 'Create' }).click();
    const birthDate = page.getByRole('textbox', { name: 'Birth Date' });
    await page.waitForFunction(
      () => document.querySelector('input[aria-invalid="true"]') !== null,
      undefined,
      { timeout: 10_000 },
    );
    expect(await birthDate.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await birthDate.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/date/i);
    expect(page.url()).toBe(suite.url('/Patient/new'));
    await expectAccessible();

    await birthDate.fill('1990-03-14');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/Patient\/[A-Za-z0-9\-.]+$/);
    await page.getByRole('heading', { level: 1, name: 'Rosa Delgado' }).waitFor();
    const id = page.url().split('/').pop() ?? '';
    const stored = await suite.bloom.systemRepo.readResource<Patient>('Patient', id);
    expect(stored).toMatchObject({
      birthDate: '1990-03-14',
      gender: 'female',
      name: [{ family: 'Delgado' }],
    });
  }, 90_000);

  it("SPEC §6: Maria opening Aisha's Patient gets the not-found panel; her own page shows", async () => {
    await signIn('maria');
    await page.goto(suite.url(`/Patient/${aishaId}`));
    const panel = page.getByRole('alert');
    await panel.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await panel.textContent()).toContain(
      `Patient/${aishaId} does not exist, or your account may not see it.`,
    );
    await expectAccessible();
    await page.goto(suite.url(`/Patient/${mariaId}`));
    await page.getByRole('heading', { level: 1, name: 'Maria Garcia' }).waitFor();
    // Patients are not offered context sharing (a clinician's switch).
    expect(await page.getByRole('switch', { name: 'Share context' }).count()).toBe(0);
  }, 90_000);

  it('SPEC §2 Links: a DiagnosticReport page links its results, which open the health-record Observation screen', async () => {
    const reports = await suite.bloom.systemRepo.search<DiagnosticReport>(
      parseSearchRequest({ resourceType: 'DiagnosticReport', query: { subject: `Patient/${mariaId}` } }),
    );
    const report = reports.resources.find((r) => (r.result?.length ?? 0) > 0);
    if (!report?.id) throw new Error('the demo has no DiagnosticReport with results for Maria');
    await signIn('dr-chen');
    await page.goto(suite.url(`/DiagnosticReport/${report.id}`));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect(field('Status').textContent()).resolves.toBe(report.status);
    await expect(field('Subject').getByRole('link').getAttribute('href')).resolves.toBe(
      `/Patient/${mariaId}`,
    );
    const firstResult = field('Result').getByRole('link').first();
    const href = await firstResult.getAttribute('href');
    expect(href).toBe(`/${report.result?.[0]?.reference}`);
    expect(await page.getByRole('switch', { name: 'Share context' }).isChecked()).toBe(false);
    await expectAccessible();
    await firstResult.click();
    await page.waitForURL(suite.url(href ?? ''));
    // Observation/{id} stays the health record's screen (a static route wins over /:resourceType/:id).
    await page.getByRole('navigation', { name: 'Health Record' }).waitFor();
  }, 90_000);

  it('an unknown resource type shows the Not found panel', async () => {
    await signIn('dr-chen');
    await page.goto(suite.url('/Nonsense/123'));
    await page.getByRole('heading', { level: 1, name: "We couldn't find that page" }).waitFor();
    await page.getByText('The resource type "Nonsense" does not exist here.').waitFor();
  }, 90_000);
});
