// "enrol MFA and sign in with a TOTP computed in the test", through the screens in Chromium:
// a fresh patient registers, opens account/profile from the user menu (SPEC §2), enables two-factor
// authentication on the card (QR code and secret, a wrong code under the field, the right one by the
// Enter key), signs out, and signs in again with password + TOTP (SPEC §2 'Enter MFA code'). At 375 px
// (the card must fit a phone) with screenshots, and the card at 1280 px. Last, 'Turn off two-step
// sign-in' with the current password and a code (a wrong password first: the server's text under the
// field), then a sign-out and a sign-in with the password alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { useDemoSuite } from './support/demo-suite';
import { unusedTotp } from './support/unused-totp';

const screenshotDir = path.join(os.tmpdir(), 'bloom-e2e', 'mfa-enrolment');
const PASSWORD = 'a-long-unusual-passphrase-77';

const suite = useDemoSuite();
let page: Page;

beforeAll(() => {
  fs.mkdirSync(screenshotDir, { recursive: true });
});

async function openPage(width: number): Promise<void> {
  ({ page } = await suite.openWindow(width));
}

async function shot(name: string, width: number): Promise<void> {
  await page.locator('.MuiButton-loading').waitFor({ state: 'detached' });
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
}

/** Nothing wider than the viewport: no sideways scrolling on a phone. */
async function expectNoHorizontalScroll(width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

async function register(email: string): Promise<void> {
  await page.goto(suite.url('/register'));
  await page.getByLabel(/^First name/).fill('Lena');
  await page.getByLabel(/^Last name/).fill('Novak');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Hello Lena' }).waitFor();
}

async function openProfileFromMenu(): Promise<void> {
  await page.getByRole('button', { name: /Lena$/ }).click();
  await page.getByRole('menuitem', { name: 'Your profile' }).click();
  await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/account/profile');
}

describe('issue #3 two-factor enrolment on the profile page in Chromium', () => {
  it('registers, enrols MFA on the card with a TOTP computed here, signs out, signs in with password + TOTP, turns it off with the password, signs in without a code', async () => {
    const width = 375;
    const email = `lena.novak.${Date.now()}@bloom.example`;
    await openPage(width);
    await register(email);
    await openProfileFromMenu();
    const details = page.getByRole('region', { name: 'Your details' });
    await details.getByText('Lena Novak').waitFor();
    await details.getByText(email).waitFor();

    const card = page.getByRole('region', { name: 'Two-factor authentication' });
    await card.getByText('Two-factor authentication is off.', { exact: false }).waitFor();
    await shot('1-card-off', width);
    await card.getByRole('button', { name: 'Enable two-factor authentication' }).click();
    const qr = card.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    const box = await qr.boundingBox();
    expect(box?.width).toBeGreaterThan(150);
    const secret = ((await card.locator('code').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await expectNoHorizontalScroll(width);
    await shot('2-enrol', width);

    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const codeField = card.getByRole('textbox', { name: /^Code from your app/ });
    const good = totp.generate();
    await codeField.fill(good === '000000' ? '111111' : '000000');
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByText('Invalid MFA token').waitFor();
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    await shot('3-wrong-code', width);
    // The keyboard alone: the right code, then Enter submits.
    await codeField.fill(await unusedTotp(secret));
    await codeField.press('Enter');
    await card
      .getByRole('status')
      .getByText('Two-factor authentication is now on.', { exact: false })
      .waitFor();
    await shot('4-card-on', width);

    // Sign out, then sign in again: the MFA step now follows the password.
    await page.getByRole('button', { name: /Lena$/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
    await page.goto(suite.url('/signin'));
    await page.getByRole('textbox', { name: /^Email/ }).fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Enter MFA code' }).waitFor();
    // Not the enrolment's code: each time step completes one sign-in.
    await page.getByLabel(/^MFA code/).fill(await unusedTotp(secret));
    await page.getByRole('button', { name: 'Submit code' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hello Lena' }).waitFor();

    // The card now says it is on, at desktop width too.
    await page.context().close();
    await openPage(1280);
    await page.goto(suite.url('/signin'));
    await page.getByRole('textbox', { name: /^Email/ }).fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Not the enrolment's code: each time step completes one sign-in.
    await page.getByLabel(/^MFA code/).fill(await unusedTotp(secret));
    await page.getByRole('button', { name: 'Submit code' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hello Lena' }).waitFor();
    await page.goto(suite.url('/account'));
    await page
      .getByRole('region', { name: 'Two-factor authentication' })
      .getByText('Two-factor authentication is on.', { exact: false })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/account/profile');
    await shot('5-card-on', 1280);

    // Turn it off: the current password (a wrong one first) and a code from the app.
    const onCard = page.getByRole('region', { name: 'Two-factor authentication' });
    await onCard.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    const turnOff = onCard.getByRole('form', { name: 'Turn off two-step sign-in' });
    const passwordField = turnOff.getByLabel(/^Current password/);
    await passwordField.fill('not-the-passphrase');
    await turnOff.getByRole('textbox', { name: /^Code from your app/ }).fill('123456');
    await turnOff.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    await turnOff.getByText('Incorrect password').waitFor();
    expect(await passwordField.getAttribute('aria-invalid')).toBe('true');
    await shot('6-wrong-password', 1280);
    await passwordField.fill(PASSWORD);
    await turnOff.getByRole('textbox', { name: /^Code from your app/ }).fill(await unusedTotp(secret));
    await passwordField.press('Enter');
    await onCard
      .getByRole('status')
      .getByText('Two-factor authentication is now off.', { exact: false })
      .waitFor();
    await onCard.getByRole('button', { name: 'Enable two-factor authentication' }).waitFor();
    await shot('7-card-off', 1280);

    // Sign out and in again: the password alone signs in, no MFA step.
    await page.getByRole('button', { name: /Lena$/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
    await page.goto(suite.url('/signin'));
    await page.getByRole('textbox', { name: /^Email/ }).fill(email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hello Lena' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Enter MFA code' }).count()).toBe(0);
  }, 180_000);
});
