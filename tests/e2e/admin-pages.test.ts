// Project administration through the generic pages, in Chromium against the real API seeded with the
// demo clinic (SPEC §2 Navigation and generic pages, §6 access as data): the admin opens Access
// policies and Memberships from the header's Admin menu, edits an AccessPolicy in the resource page's
// Edit tab (text problems refused before sending) and saves it (a new version, over HTTP too), opens
// Dr. Chen's ProjectMembership and sees its access policy; Dr. Chen has no Admin menu and opening
// /AccessPolicy (a 403 over REST) shows no data: an empty table. axe (0 critical, 0 serious) at 1280 px.
import type { AccessPolicy, Bundle } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { seriousAxeViolations, storedLogin } from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();

async function api<T>(page: Page, path: string): Promise<{ status: number; body: T }> {
  const { accessToken } = await storedLogin(page);
  const response = await fetch(new URL(`fhir/R4/${path}`, suite.bloom.apiBaseUrl), {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function openAdminItem(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('menuitem', { name }).click();
}

function results(page: Page, resourceType: string) {
  return page.getByRole('grid', { name: `${resourceType} search results` });
}

function field(page: Page, label: string) {
  return page.locator('dl').first().locator(`dt:text-is("${label}") + dd`);
}

describe('administration through the generic pages (Chromium, 1280 px)', () => {
  it('the admin edits an AccessPolicy and saves it, and reads a membership’s access', async () => {
    const { page } = await suite.signIn('admin', 1280);
    await openAdminItem(page, 'Access policies');
    await page.waitForURL(/\/AccessPolicy(\?|$)/);
    const policies = results(page, 'AccessPolicy');
    // AccessPolicy's default columns are its name and the resource types it covers: the policy's row
    // shows its name, linking to the id the API gives for that name.
    const named = await api<Bundle<AccessPolicy>>(page, 'AccessPolicy?name=Bloom admin');
    const id = named.body.entry?.[0]?.resource?.id ?? '';
    expect(id).not.toBe('');
    await policies.getByRole('row').nth(1).waitFor();
    const nameLink = policies.getByRole('link', { name: 'Bloom admin', exact: true });
    expect(await nameLink.getAttribute('href')).toBe(`/AccessPolicy/${id}`);
    const types = (named.body.entry?.[0]?.resource?.resource ?? []).map((entry) => entry.resourceType);
    expect(types.length).toBeGreaterThan(0);
    const typesCell = policies.locator(`.MuiDataGrid-row[data-id="${id}"] [data-field="resource"]`);
    expect(await typesCell.textContent()).toContain(types[0]);
    // The three seeded policies (patient, clinic staff, admin).
    const hrefs = await policies
      .locator('a[href^="/AccessPolicy/"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(new Set(hrefs).size).toBe(3);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await policies.locator(`a[href="/AccessPolicy/${id}"]`).first().click();
    await page.getByRole('heading', { level: 1, name: 'Bloom admin' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/AccessPolicy/${id}`);
    const before = await api<AccessPolicy>(page, `AccessPolicy/${id}`);
    expect(before.status).toBe(200);

    await page.getByRole('tab', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Resource JSON' });
    const shown = JSON.parse(await editor.inputValue()) as AccessPolicy;
    expect(shown).toMatchObject({ resourceType: 'AccessPolicy', id, name: 'Bloom admin' });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Problems in the text are refused on the page, before anything is sent.
    await editor.fill('{ "resourceType": "AccessPolicy", ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Not valid JSON: / })
      .waitFor();
    await editor.fill(JSON.stringify({ ...shown, id: 'another-id' }));
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `id must stay "${id}".` })
      .waitFor();
    expect((await api<AccessPolicy>(page, `AccessPolicy/${id}`)).body.meta?.versionId).toBe(
      before.body.meta?.versionId,
    );

    // The name and one entry: Patient added to what the admin policy grants.
    const edited: AccessPolicy = {
      ...shown,
      name: 'Bloom admin (edited)',
      resource: [...(shown.resource ?? []), { resourceType: 'Patient', readonly: true }],
    };
    await editor.fill(JSON.stringify(edited, null, 2));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Bloom admin (edited)' }).waitFor();
    const after = await api<AccessPolicy>(page, `AccessPolicy/${id}`);
    expect(after.body.name).toBe('Bloom admin (edited)');
    expect(after.body.resource?.at(-1)).toEqual({ resourceType: 'Patient', readonly: true });
    expect(after.body.meta?.versionId).not.toBe(before.body.meta?.versionId);
    expect(JSON.parse(await editor.inputValue())).toMatchObject({
      name: 'Bloom admin (edited)',
      meta: { versionId: after.body.meta?.versionId },
    });
    await page.getByRole('tab', { name: 'History' }).click();
    const versions = page.getByRole('table', { name: 'Versions' });
    await versions.waitFor();
    await expect(versions.getByRole('row').count()).resolves.toBe(3);

    // Memberships: Dr. Chen's names the clinic staff policy.
    await openAdminItem(page, 'Memberships');
    await page.waitForURL(/\/ProjectMembership(\?|$)/);
    const memberships = results(page, 'ProjectMembership');
    const chen = await api<Bundle>(page, 'Practitioner?name=Chen');
    const chenId = chen.body.entry?.[0]?.resource?.id ?? '';
    const membership = await api<Bundle>(page, `ProjectMembership?profile=Practitioner/${chenId}`);
    const membershipId = membership.body.entry?.[0]?.resource?.id ?? '';
    expect(membershipId).not.toBe('');
    const chenLink = memberships.locator(`a[href="/ProjectMembership/${membershipId}"]`).first();
    await chenLink.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await chenLink.click();
    await page.waitForURL(/\/ProjectMembership\/[^/]+$/);
    const policy = field(page, 'Access Policy').getByRole('link');
    await policy.waitFor();
    expect(await policy.getAttribute('href')).toMatch(/^\/AccessPolicy\/[A-Za-z0-9\-.]+$/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await policy.click();
    await page.getByRole('heading', { level: 1, name: 'Bloom clinic staff' }).waitFor();
  }, 180_000);

  it("Dr. Chen has no Admin menu, and /AccessPolicy (403 over REST) shows the server's refusal, no data", async () => {
    const { page } = await suite.signIn('dr-chen', 1280);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Records' }).waitFor();
    expect(await nav.getByRole('button', { name: 'Admin' }).count()).toBe(0);
    const refused = await api<unknown>(page, 'AccessPolicy');
    expect(refused.status).toBe(403);

    await page.goto(suite.url('/AccessPolicy'));
    // The table's search is refused as REST refuses it, and says so: not an empty "No results".
    await page.getByRole('alert').filter({ hasText: 'Forbidden: AccessPolicy is not accessible' }).waitFor();
    expect(await page.getByText('No results').count()).toBe(0);
    expect(await page.locator('a[href^="/AccessPolicy/"]').count()).toBe(0);
    expect(await page.getByText(/Bloom (admin|clinic staff|patient)/).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  }, 120_000);
});
