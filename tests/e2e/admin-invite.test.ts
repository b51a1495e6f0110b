// Inviting a user as the project admin, in Chromium against the real API seeded with the demo clinic
// (SPEC §6 project administration, §7 invite, §5 form checks), at 1280 and 375 px: the admin opens
// Admin → Invite a user, an empty form is refused on the page, then a practitioner is invited with the
// clinic staff policy; the new ProjectMembership is in the Memberships list and, over HTTP, has the
// profile, user and policy. Dr. Chen (no admin flag) is refused by the server with 403. axe (0
// critical, 0 serious) on the form and after the invitation; nothing scrolls sideways at 375 px.
import crypto from 'node:crypto';
import type { AccessPolicy, Bundle, Practitioner, ProjectMembership } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { seriousAxeViolations, sidewaysOverflow, storedLogin } from './support/patient-session';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();

async function api<T>(
  page: Page,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const { accessToken } = await storedLogin(page);
  const response = await fetch(new URL(path, suite.bloom.apiBaseUrl), {
    ...init,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function openAdminItem(page: Page, width: number, name: string): Promise<void> {
  if (width < 768) {
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin' }).click();
  }
  await page.getByRole('menuitem', { name }).click();
}

describe.each([1280, 375])('invite a user as the project admin (Chromium, %i px)', (width) => {
  it('invites a practitioner with a policy; the membership is in the Memberships list', async () => {
    const { page } = await suite.signIn('admin', width);
    await openAdminItem(page, width, 'Invite a user');
    await page.waitForURL(/\/admin\/invite$/);
    await page.getByRole('heading', { level: 1, name: 'Invite a user' }).waitFor();
    const form = page.getByRole('form', { name: 'Invite a user' });
    const policy = form.getByRole('combobox', { name: 'Access policy' });
    await policy.locator('option', { hasText: 'Bloom clinic staff' }).waitFor({ state: 'attached' });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Nothing filled in: refused on the page, nothing sent.
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await form.getByText('First name is required').waitFor();
    await form.getByText('Email is required').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    const email = `midwife-${crypto.randomUUID().slice(0, 8)}@bloom.example`;
    await form.getByRole('textbox', { name: /^First name/ }).fill('Rosa');
    await form.getByRole('textbox', { name: /^Last name/ }).fill(`Lopez ${width}`);
    await form.getByRole('textbox', { name: /^Email/ }).fill(email);
    await policy.selectOption({ label: 'Bloom clinic staff' });
    await form.getByRole('button', { name: 'Send invitation' }).click();
    const done = page.getByRole('status').filter({ hasText: `Rosa Lopez ${width} (${email}) is invited.` });
    await done.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    const href = (await done.getByRole('link', { name: 'Open the membership' }).getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/ProjectMembership\/[^/]+$/);
    const membershipId = href.split('/').pop() ?? '';

    // Over HTTP: the membership names the new Practitioner, a User and the chosen policy.
    const staff = await api<Bundle<AccessPolicy>>(page, 'fhir/R4/AccessPolicy?name=Bloom clinic staff');
    const staffId = staff.body.entry?.[0]?.resource?.id;
    const membership = await api<ProjectMembership>(page, `fhir/R4/ProjectMembership/${membershipId}`);
    expect(membership.status).toBe(200);
    expect(membership.body).toMatchObject({
      accessPolicy: { reference: `AccessPolicy/${staffId}` },
      user: { reference: expect.stringMatching(/^User\//) },
      profile: { reference: expect.stringMatching(/^Practitioner\//) },
    });
    expect(membership.body.admin).toBeUndefined();
    const practitioner = await api<Practitioner>(page, `fhir/R4/${membership.body.profile.reference}`);
    expect(practitioner.body.name).toEqual([{ given: ['Rosa'], family: `Lopez ${width}` }]);

    // The Memberships list shows it.
    await openAdminItem(page, width, 'Memberships');
    await page.waitForURL(/\/ProjectMembership(\?|$)/);
    await page
      .getByRole('grid', { name: 'ProjectMembership search results' })
      .locator(`a[href="/ProjectMembership/${membershipId}"]`)
      .first()
      .waitFor();

    if (width === 1280) {
      // Dr. Chen is no admin: the server refuses her (403), and creates nothing.
      const chen = await suite.signIn('dr-chen', width);
      const projectId = membership.body.project?.reference?.split('/')[1] ?? '';
      const refused = await api<{ issue: { code: string }[] }>(
        chen.page,
        `admin/projects/${projectId}/invite`,
        {
          method: 'POST',
          body: JSON.stringify({
            resourceType: 'Practitioner',
            firstName: 'No',
            lastName: 'Way',
            email: `not-${email}`,
          }),
        },
      );
      expect(refused.status).toBe(403);
      expect(refused.body.issue[0].code).toBe('forbidden');
    }
  }, 240_000);
});
