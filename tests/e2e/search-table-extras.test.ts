// The search table's features beyond the established table, in Chromium against the real API with the demo
// clinic, as Dr. Chen: rows are real links (Ctrl/Cmd-click and middle-click open a new tab); the
// selection clears when the search changes; a dragged column width is saved in the key-value store
// and comes back in a new sign-in; the exported Transaction Bundle is accepted by a FHIR server (this
// one: POSTed back, its resources are created with the exported content); Bulk... runs a Bot the
// admin deployed on each selected row.
import fs from 'node:fs';
import type { Bot, Bundle, Communication, Observation } from '@medplum/fhirtypes';
import type { BrowserContext, Page } from 'playwright-core';
import { parseSearchRequest } from '../../src/fhir/search/parse';
import { useDemoSuite } from './support/demo-suite';
import { storedLogin } from './support/patient-session';
import { checkGridRow } from './support/grid-rows';

const suite = useDemoSuite();
let context: BrowserContext;
let page: Page;

async function signIn(): Promise<void> {
  ({ context, page } = await suite.signIn('dr-chen'));
}

async function openTable(path: string): Promise<void> {
  await page.goto(suite.url(path));
  // The loading overlay's skeleton rows are '.MuiDataGrid-row' too: wait for real ones.
  await page.waitForFunction(
    () => document.querySelectorAll('.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)').length > 0,
    undefined,
    { timeout: 90_000 },
  );
}

/** These tests find rows by their id cells: the table is asked for the id and _lastUpdated columns. */
const ID_TABLE = '/Observation?_fields=id,_lastUpdated';

const idCells = () => page.locator('.MuiDataGrid-row [data-field="id"]');

describe('issue #9 search table extras in Chromium', () => {
  it('Ctrl/Cmd-click and middle-click on a row open it in a new tab; the table stays', async () => {
    await signIn();
    await openTable(ID_TABLE);
    const id = (await idCells().first().textContent()) ?? '';
    const link = page.getByRole('link', { name: id, exact: true });
    expect(await link.getAttribute('href')).toBe(`/Observation/${id}`);

    for (const click of [
      () => link.click({ modifiers: ['ControlOrMeta'] }),
      () => link.click({ button: 'middle' }),
    ]) {
      const opened = context.waitForEvent('page');
      await click();
      const tab = await opened;
      await tab.waitForURL((u) => u.pathname === `/Observation/${id}`);
      await tab.close();
      expect(new URL(page.url()).pathname).toBe('/Observation');
    }
  }, 120_000);

  it('the selection clears when the search changes (next page, new filter)', async () => {
    await signIn();
    await openTable(ID_TABLE);
    const checked = () => page.locator('.MuiDataGrid-row input[type="checkbox"]:checked');
    for (const id of (await idCells().allTextContents()).slice(0, 2)) {
      await checkGridRow(page, id);
    }
    expect(await checked().count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Delete...' }).isEnabled()).toBe(true);
    const firstIds = await idCells().allTextContents();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForFunction(
      (before) =>
        [...document.querySelectorAll('.MuiDataGrid-row [data-field="id"]')].some(
          (cell) => !before.includes(cell.textContent ?? ''),
        ),
      firstIds,
    );
    expect(await checked().count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete...' }).isDisabled()).toBe(true);
    // Back on the first page nothing is selected either: the selection belonged to that search.
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has('_offset'));
    expect(await checked().count()).toBe(0);
  }, 120_000);

  it('a dragged column width is saved per user and restored in a new sign-in', async () => {
    await signIn();
    await openTable(ID_TABLE);
    const header = page.locator('[role="columnheader"][data-field="id"]');
    const before = (await header.boundingBox())!.width;
    const separator = header.locator('.MuiDataGrid-columnSeparator');
    const box = (await separator.boundingBox())!;
    const saved = page.waitForResponse(
      (response) =>
        response.request().method() === 'PUT' && response.url().endsWith('keyvalue/v1/bloom-search-tables'),
    );
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 6 });
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    // Every type's layout in one key-value entry, by resource type.
    const stored =
      (
        JSON.parse((await saved).request().postData() ?? '{}') as {
          tables?: { Observation?: { widths?: { id?: number } } };
        }
      ).tables?.Observation ?? {};
    expect(stored.widths?.id).toBeGreaterThan(before + 80);
    await context.close();

    // Sign in afresh (nothing kept in the browser): the server's key-value store brings it back.
    await signIn();
    await openTable(ID_TABLE);
    const after = (await page.locator('[role="columnheader"][data-field="id"]').boundingBox())!.width;
    expect(Math.abs(after - (stored.widths?.id ?? 0))).toBeLessThanOrEqual(1);
  }, 120_000);

  it('the exported Transaction Bundle is accepted by a FHIR server and creates the resources', async () => {
    const exported = await suite.bloom.systemRepo.search<Observation>(
      parseSearchRequest({ resourceType: 'Observation', query: { _count: '2', _sort: '_id' } }),
    );
    const originals = exported.resources;
    expect(originals).toHaveLength(2);
    await signIn();
    // An _id filter of two ids (OR): the export covers exactly those two.
    await openTable(`${ID_TABLE}&_id=${originals.map((o) => o.id).join(',')}`);
    expect(await idCells().count()).toBe(2);
    await page.getByRole('button', { name: 'Export...' }).click();
    const downloaded = page.waitForEvent('download');
    await page
      .getByRole('dialog', { name: 'Export' })
      .getByRole('button', { name: 'Export as Transaction Bundle' })
      .click();
    const bundle = JSON.parse(fs.readFileSync((await (await downloaded).path()) as string, 'utf8')) as Bundle;
    expect(bundle.type).toBe('transaction');
    expect(bundle.entry).toHaveLength(2);

    const { accessToken } = await storedLogin(page);
    const response = await fetch(new URL('fhir/R4/', suite.bloom.apiBaseUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/fhir+json' },
      body: JSON.stringify(bundle),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Bundle;
    expect(answer.type).toBe('transaction-response');
    const created = (answer.entry ?? []).map((entry) => {
      expect(entry.response?.status).toMatch(/^201/);
      // An absolute or relative 'Observation/<id>/_history/<version>'.
      return (
        /(\w+)\/([^/]+)\/_history/
          .exec(entry.response?.location ?? '')
          ?.slice(1, 3)
          .join('/') ?? ''
      );
    });
    expect(created).toHaveLength(2);
    // The entries follow the table's order, not necessarily the originals': compare as sets.
    const summary = (o: Observation) =>
      JSON.stringify([o.status, o.code, o.subject, o.effectiveDateTime, o.valueQuantity, o.component]);
    const copies: Observation[] = [];
    for (const location of created) {
      const [type, id] = location.split('/');
      expect(type).toBe('Observation');
      expect(originals.map((o) => o.id)).not.toContain(id);
      copies.push(await suite.bloom.systemRepo.readResource<Observation>('Observation', id));
    }
    expect(copies.map(summary).sort()).toEqual(originals.map(summary).sort());
  }, 120_000);

  it('Bulk... runs the chosen Bot on each selected row and reports them', async () => {
    // The clinic's admin deploys a Bot (only admins may); it records each resource it is given.
    const admin = await suite.signIn('admin');
    const { accessToken } = await storedLogin(admin.page);
    const api = (path: string, body: unknown) =>
      fetch(new URL(`fhir/R4/${path}`, suite.bloom.apiBaseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await api('Bot', { resourceType: 'Bot', name: 'Review in bulk' });
    expect(created.status).toBe(201);
    const bot = (await created.json()) as Bot;
    const code = [
      'exports.handler = async function handler(medplum, event) {',
      '  const input = event.input;',
      '  await medplum.createResource({',
      "    resourceType: 'Communication',",
      "    status: 'completed',",
      "    identifier: [{ system: 'urn:bloom:bulk-e2e', value: input.resourceType + '/' + input.id }],",
      "    payload: [{ contentString: 'Reviewed in bulk' }],",
      '  });',
      '  return { reviewed: input.id };',
      '};',
    ].join('\n');
    expect((await api(`Bot/${bot.id}/$deploy`, { code, filename: 'review.js' })).status).toBe(200);

    await signIn();
    await openTable(ID_TABLE);
    const chosen = (await idCells().allTextContents()).slice(0, 2);
    for (const id of chosen) {
      await checkGridRow(page, id);
    }
    await page.getByRole('button', { name: 'Bulk...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk' });
    await dialog.getByText('Run a bot on 2 selected Observation resources.').waitFor();
    await dialog.getByRole('combobox', { name: 'Bot' }).click();
    await page.getByRole('option', { name: 'Review in bulk' }).click();
    await dialog.getByRole('button', { name: 'Run' }).click();
    await dialog.getByText('2 of 2 ran.').waitFor({ timeout: 60_000 });

    for (const id of chosen) {
      const found = await suite.bloom.systemRepo.search<Communication>(
        parseSearchRequest({
          resourceType: 'Communication',
          query: { identifier: `urn:bloom:bulk-e2e|Observation/${id}` },
        }),
      );
      expect(found.resources).toHaveLength(1);
    }
  }, 120_000);
});
