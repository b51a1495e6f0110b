// Medplum's SearchControl (@medplum/react 5.2.13, unchanged) on Bloom's Observations as Dr. Chen:
// the rows are the demo clinic's, and a sort, a filter and the next page each ask Bloom a search
// (SPEC §7 search parameters) whose answer is what the table shows.
import type { Observation } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { demoApiClient } from '../../e2e/support/demo-sign-in';
import { databases } from '../../server/support/test-databases';
import { useMedplumReactSuite } from './support/suite';

describe.each(databases())("Medplum's SearchControl against Bloom on %s", (_engine, kind) => {
  const suite = useMedplumReactSuite({ database: kind });
  /** The ids in the table's data rows (the first column), in order. */
  async function rowIds(page: Page): Promise<string[]> {
    return page
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.querySelector('td')?.textContent?.trim() ?? ''));
  }

  /** Waits until the table's first data row shows `id`. */
  async function waitForFirstRow(page: Page, id: string): Promise<void> {
    await page.locator('tbody tr').first().locator('td').first().getByText(id, { exact: true }).waitFor();
  }

  async function expected(query: string): Promise<{ ids: string[]; total: number | undefined }> {
    const client = await demoApiClient(suite.demo.bloom, 'dr.chen@bloom.example');
    const bundle = await client.search<Observation>('Observation', `${query}&_total=accurate`, {
      cache: 'no-cache',
    });
    return { ids: (bundle.entry ?? []).map((entry) => entry.resource?.id ?? ''), total: bundle.total };
  }

  test('SearchControl on Observation shows the demo rows; sorting, filtering and paging ask Bloom', async () => {
    const { page, responses } = await suite.signIn('dr.chen@bloom.example', '/search/Observation');

    // First page: the clinic's Observations, five a page, with the count Bloom gives.
    // SearchControl's default order is the newest change first.
    const all = await expected('_count=5&_sort=-_lastUpdated');
    expect(all.total).toBeGreaterThan(10);
    await page.getByText(`1-5 of ${all.total}`).waitFor();
    await waitForFirstRow(page, all.ids[0]);
    expect(await rowIds(page)).toEqual(all.ids);
    await page.getByRole('cell', { name: 'Weight' }).first().waitFor();

    // Sort by the Effective column, oldest first: Observation's `date` parameter.
    await page.getByRole('columnheader', { name: 'Effective' }).getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Sort Oldest to Newest' }).click();
    const sorted = await expected('_count=5&_sort=date');
    await waitForFirstRow(page, sorted.ids[0]);
    expect(await rowIds(page)).toEqual(sorted.ids);
    expect(responses.some((r) => /\/Observation\?.*_sort=date/.test(r.url))).toBe(true);

    // Filter the Code column by text: only the weights.
    await page.getByRole('columnheader', { name: 'Code' }).getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Text contains...' }).click();
    await page.getByRole('dialog').getByRole('textbox').fill('Weight');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    const weights = await expected('_count=5&_sort=date&code:text=Weight');
    expect(weights.total).toBeGreaterThan(5);
    await page.getByText(`1-5 of ${weights.total}`).waitFor();
    expect(await rowIds(page)).toEqual(weights.ids);
    expect(await page.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual(
      weights.ids.map(() => 'Weight'),
    );

    // Next page of the filtered, sorted search.
    await page.getByRole('button', { name: 'Next page' }).click();
    const second = await expected('_count=5&_offset=5&_sort=date&code:text=Weight');
    await page.getByText(`6-${Math.min(10, weights.total ?? 0)} of ${weights.total}`).waitFor();
    await waitForFirstRow(page, second.ids[0]);
    expect(await rowIds(page)).toEqual(second.ids);
    expect(responses.some((r) => /\/Observation\?.*_offset=5/.test(r.url))).toBe(true);
  });
});
