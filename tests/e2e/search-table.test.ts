// E2E in Chromium against the real API seeded with the demo clinic and the built app (SPEC §2
// generic resource search table, §3 search state, §4 Filters, §6 access). As Dr. Chen: open /Observation,
// add a filter, choose fields, sort by date descending, page forward and back (and the back button),
// export CSV and check its rows against the server, select two rows and delete them. As Maria:
// /Observation shows only her own.
import fs from 'node:fs';
import type { Observation } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { parseSearchRequest } from '../../src/fhir/search/parse';
import { getDemoAccount } from '../../src/server/seed/demo';
import { demoPatientId, signInAsDemo } from './support/demo-sign-in';
import { useDemoSuite, type DemoAccountKey } from './support/demo-suite';
import { seriousAxeViolations } from './support/patient-session';
import { checkGridRow } from './support/grid-rows';

const suite = useDemoSuite();
let page: Page;

async function signIn(account: DemoAccountKey, width = 1280): Promise<void> {
  ({ page } = await suite.signIn(account, width));
}

async function serverObservations(query: Record<string, string>): Promise<{ ids: string[]; total: number }> {
  const result = await suite.bloom.systemRepo.search<Observation>(
    parseSearchRequest({
      resourceType: 'Observation',
      query: { _count: '1000', _total: 'accurate', ...query },
    }),
  );
  return { ids: result.resources.map((r) => r.id as string), total: result.total ?? result.resources.length };
}

// The loading overlay's skeleton rows are '.MuiDataGrid-row' too: only real rows count.
const rows = () => page.locator('.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)');
const rangeText = () => page.getByRole('navigation', { name: 'Pages' }).locator('p');

async function waitForRows(): Promise<void> {
  await page.waitForFunction(
    () => document.querySelectorAll('.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)').length > 0,
  );
}

describe('SPEC §3 search table in Chromium', () => {
  it('Dr. Chen: filter, fields, sort, paging, CSV export and delete on /Observation', async () => {
    const window = await suite.signIn('dr-chen');
    page = window.page;
    const all = await serverObservations({});
    const finals = await serverObservations({ status: 'final' });
    expect(finals.total).toBeGreaterThan(20);
    const restSearches: string[] = [];
    page.on('request', (request) => {
      if (/\/fhir\/R4\/Observation\?/.test(request.url())) restSearches.push(request.url());
    });

    // This test follows rows by their ids: it asks for the id and _lastUpdated columns.
    await page.goto(suite.url('/Observation?_fields=id,_lastUpdated'));
    await page.getByRole('heading', { level: 1, name: 'Observation' }).waitFor();
    await waitForRows();
    // The grid holds the page's 20 rows (its aria-rowcount counts the header row too); it renders the
    // rows in view, not all of them (a virtualised grid whose height stays under the page's 20 rows).
    await expect(page.getByRole('grid').getAttribute('aria-rowcount')).resolves.toBe('21');
    expect(await rows().count()).toBeGreaterThan(0);
    expect(await rows().count()).toBeLessThan(20);
    await expect(rangeText().textContent()).resolves.toBe(`1-20 of ${all.total}`);
    // The rows came in one request, the typed ResourceList operation (the suite checks it is a
    // generated one), and none by the REST search.
    expect(window.graphqlDocuments.filter((query) => query.includes('ResourceSearch'))).toHaveLength(1);
    expect(restSearches).toEqual([]);

    // Add a filter in the Filters dialog (SPEC §2, §4).
    await page.getByRole('button', { name: 'Filters' }).click();
    const filters = page.getByRole('dialog', { name: 'Filters' });
    await filters.getByRole('combobox', { name: 'Field' }).click();
    await page.getByRole('option', { name: 'status', exact: true }).click();
    await filters.getByRole('combobox', { name: 'Operation' }).click();
    await page.getByRole('option', { name: 'equals', exact: true }).click();
    await filters.getByRole('textbox', { name: 'Value' }).fill('final');
    await filters.getByRole('button', { name: 'Add' }).click();
    await filters.getByRole('cell', { name: 'final' }).waitFor();
    await filters.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL((u) => u.searchParams.get('status') === 'final');
    await page.waitForFunction(
      (text) => document.querySelector('nav[aria-label="Pages"] p')?.textContent === text,
      `1-20 of ${finals.total}`,
    );

    // Choose fields: Status and Effective join the defaults.
    await page.getByRole('button', { name: 'Fields' }).click();
    const fieldsDialog = page.getByRole('dialog', { name: 'Fields' });
    const fieldsInput = fieldsDialog.getByRole('combobox', { name: 'Fields' });
    await fieldsInput.fill('Effective');
    await page.getByRole('option', { name: 'Effective', exact: true }).click();
    await fieldsInput.fill('Status');
    await page.getByRole('option', { name: 'Status', exact: true }).click();
    // The list stays open for more choices (disableCloseOnSelect): clicking the title closes it.
    await fieldsDialog.getByRole('heading', { name: 'Fields' }).click();
    await fieldsDialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL((u) => u.searchParams.get('_fields') === 'id,_lastUpdated,effective,status');
    await page.getByRole('columnheader', { name: 'Effective' }).waitFor();

    // Sort by date descending from the Effective column's menu.
    const header = page.getByRole('columnheader', { name: 'Effective' });
    await header.hover();
    await header.getByRole('button', { name: /menu/i }).click();
    await page.getByRole('menuitem', { name: 'Sort Z to A' }).click();
    await page.waitForURL((u) => u.searchParams.get('_sort') === '-date');
    // The sorted page replaces the unsorted one: every row final, effective dates newest first.
    await page.waitForFunction(() => {
      const cells = (field: string) =>
        [...document.querySelectorAll(`.MuiDataGrid-row [data-field="${field}"]`)].map(
          (c) => c.textContent ?? '',
        );
      const dates = cells('effective');
      return (
        document.querySelector('[role="grid"]')?.getAttribute('aria-rowcount') === '21' &&
        dates.length > 0 &&
        cells('status').every((status) => status === 'final') &&
        dates.every((date, i) => i === 0 || dates[i - 1] >= date)
      );
    });
    const firstPageIds = await rows().locator('[data-field="id"]').allTextContents();

    // Page forward and back, with the pager and with the browser's back button.
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL((u) => u.searchParams.get('_offset') === '20');
    await page.waitForFunction(
      (text) => document.querySelector('nav[aria-label="Pages"] p')?.textContent?.startsWith(text),
      '21-',
    );
    const secondPageIds = await rows().locator('[data-field="id"]').allTextContents();
    expect(secondPageIds.some((id) => firstPageIds.includes(id))).toBe(false);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.waitForURL((u) => !u.searchParams.has('_offset'));
    await page.waitForFunction(
      (text) => document.querySelector('nav[aria-label="Pages"] p')?.textContent === text,
      `1-20 of ${finals.total}`,
    );
    expect(await rows().locator('[data-field="id"]').allTextContents()).toEqual(firstPageIds);
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get('_offset') === '20');
    await page.goForward();
    await page.waitForURL((u) => !u.searchParams.has('_offset'));

    // Export CSV: every matching row (past one page), the chosen fields as columns.
    await page.getByRole('button', { name: 'Export...' }).click();
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('dialog', { name: 'Export' }).getByRole('button', { name: 'Export as CSV' }).click();
    const download = await downloadPromise;
    const csv = fs.readFileSync((await download.path()) as string, 'utf8').replace(/^\ufeff/, '');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('ID,Last Updated,Effective,Status');
    expect(lines).toHaveLength(finals.total + 1);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual([...finals.ids].sort());
    expect(lines.slice(1).every((line) => line.endsWith(',final'))).toBe(true);

    // Select two rows and delete them in one batch.
    const chosen = firstPageIds.slice(0, 2);
    for (const id of chosen) {
      await checkGridRow(page, id);
    }
    await page.getByRole('button', { name: 'Delete...' }).click();
    const deleteDialog = page.getByRole('dialog', { name: 'Delete' });
    await deleteDialog.getByText('Delete 2 selected Observation resources?', { exact: false }).waitFor();
    await deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await deleteDialog.getByText('2 of 2 deleted.').waitFor();
    await deleteDialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(
      (text) => document.querySelector('nav[aria-label="Pages"] p')?.textContent === text,
      `1-20 of ${finals.total - 2}`,
    );
    const remaining = await serverObservations({ status: 'final' });
    expect(remaining.ids).not.toContain(chosen[0]);
    expect(remaining.ids).not.toContain(chosen[1]);
    const shown = await rows().locator('[data-field="id"]').allTextContents();
    expect(shown).not.toContain(chosen[0]);
  }, 180_000);

  it('Maria: /Observation shows only her own', async () => {
    const mariaId = await demoPatientId(suite.bloom, 'maria@bloom.example');
    const hers = await serverObservations({ subject: `Patient/${mariaId}` });
    const all = await serverObservations({});
    expect(hers.total).toBeGreaterThan(0);
    expect(hers.total).toBeLessThan(all.total);
    await signIn('maria');
    await page.goto(suite.url('/Observation?_fields=id,_lastUpdated&_count=100'));
    await waitForRows();
    await expect(rangeText().textContent()).resolves.toBe(`1-${Math.min(100, hers.total)} of ${hers.total}`);
    const ids = await rows().locator('[data-field="id"]').allTextContents();
    expect(ids.every((id) => hers.ids.includes(id))).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 120_000);

  it('keyboard: arrows move between cells, Enter opens the row; under 768 px Export, Delete and Bulk hide', async () => {
    await signIn('dr-chen');
    await page.goto(suite.url('/Observation?_fields=id,_lastUpdated'));
    await waitForRows();
    await rows().first().locator('[data-field="__check__"]').click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    // Focus moved to the next row's ID cell, onto its link.
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      const cell = active?.closest('[role="gridcell"]');
      const row = active?.closest('.MuiDataGrid-row');
      return {
        field: cell?.getAttribute('data-field'),
        rowIndex: row ? [...document.querySelectorAll('.MuiDataGrid-row')].indexOf(row) : -1,
        href: active?.getAttribute('href'),
      };
    });
    expect(focused.field).toBe('id');
    expect(focused.rowIndex).toBe(1);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === focused.href);
    await page.context().close();

    await signIn('dr-chen', 375);
    await page.goto(suite.url('/Observation'));
    await waitForRows();
    expect(await page.getByRole('button', { name: 'Fields' }).isVisible()).toBe(true);
    for (const name of ['Export...', 'Delete...', 'Bulk...']) {
      expect(await page.getByRole('button', { name }).isVisible()).toBe(false);
    }
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
  }, 90_000);

  it('an unknown resource type shows the not-found page', async () => {
    await signIn('dr-chen');
    await page.goto(suite.url('/NoSuchType'));
    await page.getByRole('heading', { level: 1, name: "We couldn't find that page" }).waitFor();
    await page.goto(suite.url('/lowercase'));
    await page.getByRole('heading', { level: 1, name: "We couldn't find that page" }).waitFor();
  }, 60_000);
});

describe('keys not set yet are a normal answer', () => {
  it('a fresh sign-in and a search table visit log no console error, and no key-value read fails', async () => {
    const window = await suite.openWindow(1280);
    page = window.page;
    // Every console error counts here, Chromium's "Failed to load resource" lines (a 404 or a 400)
    // included: no key of earlier releases (dotted names every server refuses) is asked for.
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    const keyReads: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/keyvalue/v1/'))
        keyReads.push({ url: response.url(), status: response.status() });
    });
    // The admin: the tests above saved Dr. Chen's own columns, and this one is about a user with none.
    await signInAsDemo(page, suite.bloom, getDemoAccount('admin').email);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.goto(suite.url('/Observation'));
    await page.getByRole('heading', { level: 1, name: 'Observation' }).waitFor();
    await waitForRows();
    await page.waitForLoadState('networkidle');
    // With nothing stored, Observation's default columns show (no id column), each cell's whole
    // value in its hover title.
    const headers = await page
      .locator('[role="columnheader"]:not([data-field="__check__"])')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-field')));
    expect(headers).toEqual(['subject', 'code', 'value', 'effective', 'status', '_lastUpdated']);
    const codeLink = rows().first().locator('[data-field="code"] a');
    expect(await codeLink.getAttribute('title')).toBe(await codeLink.textContent());
    expect((await codeLink.textContent())?.trim()).not.toBe('');
    // The share-context key and the table layouts were read, and not set yet: 204, never a 404.
    expect(keyReads.length).toBeGreaterThan(0);
    expect(keyReads.filter((read) => read.status >= 400)).toEqual([]);
    expect(keyReads.filter((read) => /\/keyvalue\/v1\/[^/?]*\./.test(read.url))).toEqual([]);
    expect(keyReads.some((read) => read.status === 204)).toBe(true);
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
