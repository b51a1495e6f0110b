// E2E, account pages and the frame's edges, in Chromium against the real API seeded with the
// demo clinic and the built app, signed in as Maria, at 1280 and at 375 px: Home's pregnancy card from
// the demo's estimated delivery date; account/profile edits (a bad birth date refused under its field by
// the server, then a change that persists after reload); account/provider with Dr. Chen; an unknown
// route's not-found panel ("We couldn't find that page") signed in and the redirect to / signed out.
// axe on every screen (no critical or serious violation), a title per route, `lang` set, no sideways
// scrolling.
// The error panel and the router fallback are in tests/e2e/error-panel.test.ts.
import type { Page } from 'playwright-core';
import { useDemoSuite } from './support/demo-suite';
import { openSideMenuItem, seriousAxeViolations, sidewaysOverflow } from './support/patient-session';

const suite = useDemoSuite();
let page: Page;

async function signInAsMaria(width: number): Promise<void> {
  ({ page } = await suite.signIn('maria', width));
}

async function expectAccessible(): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

async function expectScreen(title: string): Promise<void> {
  await page.waitForFunction((expected) => document.title === expected, title);
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  await expectAccessible();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
}

function openAccountItem(width: number, name: string): Promise<void> {
  return openSideMenuItem(page, 'Account', width, name);
}

function field(name: RegExp) {
  return page.getByRole('textbox', { name });
}

describe.each([1280, 375])('issue #7 account pages at %i px', (width) => {
  it("home shows where the pregnancy stands from the demo's estimated delivery date (LOINC 11778-8)", async () => {
    await signInAsMaria(width);
    const card = page.getByRole('region', { name: 'Your pregnancy', exact: true });
    await card.waitFor();
    // The demo clinic is seeded today with Maria 35 weeks 4 days pregnant.
    expect(await card.textContent()).toContain('35 weeks 4 days · trimester 3');
    expect(await card.textContent()).toMatch(/Due date: \S/);
    await expectScreen('Home · Bloom');
  }, 60_000);

  it('SPEC §2 profile: a bad birth date is refused under its field; an edit persists after reload', async () => {
    await signInAsMaria(width);
    // User menu → Your profile.
    await page.getByRole('button', { name: /Maria$/ }).click();
    await page.getByRole('menuitem', { name: 'Your profile' }).click();
    await page.waitForURL(/\/account\/profile$/);
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await field(/^First name/).waitFor();
    expect(await field(/^First name/).inputValue()).toBe('Maria');
    await page.getByRole('region', { name: 'Two-factor authentication' }).waitFor();
    await expectScreen('Profile · Bloom');

    const birthDate = field(/^Birth date/);
    const original = await birthDate.inputValue();
    expect(original).toMatch(/^\d{4}-03-14$/);
    // SPEC §5: the server's issue shows under the field it names (February has no 30th).
    await birthDate.fill('1994-02-30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForFunction(
      () => document.querySelector('#profile-birthDate')?.getAttribute('aria-invalid') === 'true',
    );
    const described = await birthDate.evaluate((input) => {
      const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    });
    expect(described).toMatch(/date/i);
    await expectAccessible();

    const city = `Chicago ${width}`;
    await birthDate.fill(original);
    await field(/^City/).fill(city);
    await page.getByRole('combobox', { name: /^Gender/ }).selectOption({ label: 'Other' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Your profile is saved.' }).waitFor();

    await page.reload();
    await field(/^City/).waitFor();
    expect(await field(/^City/).inputValue()).toBe(city);
    expect(await field(/^Birth date/).inputValue()).toBe(original);
    expect(await page.getByRole('combobox', { name: /^Gender/ }).inputValue()).toBe('other');
    expect(await field(/^Email/).inputValue()).toBe('maria@bloom.example');
  }, 90_000);

  it('SPEC §2 provider: Dr. Chen with photo, phone and the clinic, from the Account menu', async () => {
    await signInAsMaria(width);
    await page.goto(suite.url('/account'));
    await page.waitForURL(/\/account\/profile$/);
    await openAccountItem(width, 'Provider');
    await page.waitForURL(/\/account\/provider$/);
    const card = page.getByRole('region', { name: 'Dr. Lily Chen MD' });
    await card.waitFor();
    await card.getByRole('img', { name: 'Photo of Dr. Lily Chen MD' }).waitFor();
    expect(await card.getByRole('link', { name: '+1-217-555-0142' }).getAttribute('href')).toBe(
      'tel:+12175550142',
    );
    expect(await card.textContent()).toContain('Bloom Clinic');
    await expectScreen('Provider · Bloom');
  }, 60_000);

  it('an unknown route shows "We couldn\'t find that page" in the frame signed in, and goes to / signed out', async () => {
    await signInAsMaria(width);
    await page.goto(suite.url('/no/such/page'));
    await page.getByRole('heading', { level: 1, name: "We couldn't find that page" }).waitFor();
    await page.getByRole('banner').waitFor();
    await expectScreen('Page not found · Bloom');
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hello Maria' }).waitFor();

    const { page: other } = await suite.openWindow(width);
    await other.goto(suite.url('/no/such/page'));
    await other.waitForURL(suite.url('/'));
    await other.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();
  }, 60_000);
});
