// Against the real API (seeded with the demo clinic, seedDemoClinic) and the
// built app: register a new patient and land on home; sign out; sign in with a password; a wrong password
// shows the server's error; enrol MFA (through the API) and sign in with a TOTP computed here; a user with
// two memberships chooses a profile; a user without one creates a project; the scope choice. Each sign-in
// step is captured at 375 and 1280 px (SPEC §2 login flow screens, widths 400 and 450).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Practitioner, Project, ProjectMembership } from '@medplum/fhirtypes';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { BloomClient, MemoryStorage, PrefixedStorage } from '../../src/client';
import { findUserByEmail } from '../../src/server/repo/lookups';
import { demoApiClient } from './support/demo-sign-in';
import { useDemoSuite } from './support/demo-suite';
import { unusedTotp } from './support/unused-totp';

const screenshotDir = path.join(os.tmpdir(), 'bloom-e2e', 'signin');
const PASSWORD = 'bloom-demo';
const widths = [375, 1280] as const;

const suite = useDemoSuite();
let context: BrowserContext;
let page: Page;
let pageProblems: string[];

beforeAll(() => {
  fs.mkdirSync(screenshotDir, { recursive: true });
});

async function openPage(width: number): Promise<Page> {
  ({ context, page, problems: pageProblems } = await suite.openWindow(width));
  return page;
}

async function shot(name: string, width: number): Promise<void> {
  // No half-finished button transition in the picture.
  await page.locator('.MuiButton-loading').waitFor({ state: 'detached' });
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
}

async function enterEmail(email: string, width?: number): Promise<void> {
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  if (width) await shot('1-email', width);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel(/^Password/).waitFor();
}

async function enterPassword(password: string, width?: number): Promise<void> {
  await page.getByLabel(/^Password/).fill(password);
  if (width) await shot('2-password', width);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectHome(name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: `Hello ${name}` }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
}

function totp(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret) });
}

describe('issue #3 sign-in screens in Chromium', () => {
  it('registers a new patient in Bloom Clinic, lands on the home page, then signs out', async () => {
    expect(suite.bloom.clinicProjectId).toBeDefined();
    await openPage(1280);
    // The app host's /config.json carries only baseUrl; the clinic's project is added here as a server
    // exposing it would (see the report: the server should put projectId in config.json).
    await page.route('**/config.json', (route) =>
      route.fulfill({ json: { baseUrl: suite.bloom.apiBaseUrl, projectId: suite.bloom.clinicProjectId } }),
    );
    await page.goto(suite.url('/register'));
    await page.getByLabel(/^First name/).fill('Nadia');
    await page.getByLabel(/^Last name/).fill('Okafor');
    await page.getByLabel(/^Email/).fill('nadia.okafor@bloom.example');
    await page.getByLabel(/^Password/).fill('a-long-unusual-passphrase-42');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectHome('Nadia');
    await shot('register-home', 1280);
    // Signed in as a Patient of Bloom Clinic.
    const profile = await page.evaluate(() => JSON.parse(localStorage.getItem('@bloom/activeLogin') ?? '{}'));
    expect(profile.profile.reference).toMatch(/^Patient\//);
    expect(profile.project.reference).toBe(`Project/${suite.bloom.clinicProjectId}`);

    await page.getByRole('button', { name: /Nadia$/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('@bloom/activeLogin'))).toBeNull();
    // The revoked session does not come back on reload.
    await page.reload();
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
  });

  it.each(widths)(
    "signs in with a password as maria@bloom.example and is greeted 'Maria' (%i px)",
    async (width) => {
      await openPage(width);
      await page.goto(suite.url('/signin'));
      await enterEmail('maria@bloom.example', width);
      await enterPassword(PASSWORD, width);
      await expectHome('Maria');
      await shot('7-home', width);
      // Still signed in after a reload (stored login, SPEC §3).
      await page.reload();
      await expectHome('Maria');
    },
  );

  it.each(widths)("a wrong password shows the server's error (%i px)", async (width) => {
    await openPage(width);
    await page.goto(suite.url('/signin'));
    await enterEmail('maria@bloom.example');
    await enterPassword('not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toMatch(/^Error/);
    expect(text).not.toContain('Could not reach the server');
    // Same message for an unknown email (nobody learns which emails exist).
    const wrongPasswordMessage = text;
    await shot('2-password-error', width);
    await page.getByRole('button', { name: 'Change' }).click();
    await enterEmail('nobody@bloom.example');
    await enterPassword('not-the-password');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(wrongPasswordMessage);
    expect(new URL(page.url()).pathname).toBe('/signin');
  });

  it('enrols MFA through the API and signs in with a TOTP computed in the test; a wrong code shows the Error box', async () => {
    const api = await demoApiClient(suite.bloom, 'aisha@bloom.example');
    const status = await api.get<{ enrolled: boolean; secret: string; enrollUri: string }>('auth/mfa/status');
    expect(status.enrolled).toBe(false);
    expect(status.enrollUri).toMatch(/^otpauth:\/\/totp\//);
    await api.post('auth/mfa/enroll', { token: await unusedTotp(status.secret) }, 'application/json');

    for (const width of widths) {
      await openPage(width);
      await page.goto(suite.url('/signin'));
      await enterEmail('aisha@bloom.example');
      await enterPassword(PASSWORD);
      await page.getByRole('heading', { name: 'Enter MFA code' }).waitFor();
      await shot('3-mfa', width);
      const now = Date.now();
      const near = [-30_000, 0, 30_000].map((shift) =>
        totp(status.secret).generate({ timestamp: now + shift }),
      );
      const wrong = ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code)) as string;
      await page.getByLabel(/^MFA code/).fill(wrong);
      await page.getByRole('button', { name: 'Submit code' }).click();
      const box = page.getByRole('alert');
      await box.waitFor();
      await expect(box.textContent()).resolves.toMatch(/^Error/);
      await shot('3-mfa-error', width);
      await page.getByLabel(/^MFA code/).fill(await unusedTotp(status.secret));
      await page.getByRole('button', { name: 'Submit code' }).click();
      await expectHome('Aisha');
      await context.close();
      expect(pageProblems).toEqual([]);
    }
  }, 90_000);

  it('a user with two memberships chooses a profile (search, Nothing found...) and lands on home', async () => {
    // Setup through the server's own (system) repository: a second project where dr.chen also practises.
    const user = await findUserByEmail(suite.bloom.db, 'dr.chen@bloom.example');
    expect(user?.id).toBeDefined();
    const project = await suite.bloom.systemRepo.createResource<Project>({
      resourceType: 'Project',
      name: 'Riverside Birth Center',
    });
    const projectRepo = suite.bloom.systemRepo.withContext({
      ...suite.bloom.systemRepo.context,
      project: project.id,
    });
    const practitioner = await projectRepo.createResource<Practitioner>({
      resourceType: 'Practitioner',
      name: [{ prefix: ['Dr.'], given: ['Li'], family: 'Chen' }],
    });
    await projectRepo.createResource<ProjectMembership>({
      resourceType: 'ProjectMembership',
      project: { reference: `Project/${project.id}`, display: 'Riverside Birth Center' },
      user: { reference: `User/${user?.id}`, display: 'dr.chen@bloom.example' },
      profile: { reference: `Practitioner/${practitioner.id}`, display: 'Dr. Li Chen (Riverside)' },
    });

    for (const width of widths) {
      await openPage(width);
      await page.goto(suite.url('/signin'));
      await enterEmail('dr.chen@bloom.example');
      await enterPassword(PASSWORD);
      await page.getByRole('heading', { name: 'Choose profile' }).waitFor();
      const list = page.getByRole('list', { name: 'Profiles' });
      await expect(list.getByRole('button').count()).resolves.toBe(2);
      await shot('4-choose-profile', width);
      await page.getByRole('searchbox', { name: 'Search' }).fill('no such clinic');
      await page.getByText('Nothing found...').waitFor();
      await shot('4-choose-profile-empty', width);
      await page.getByRole('searchbox', { name: 'Search' }).fill('riverside');
      await list
        .getByRole('button', { name: /Riverside/ })
        .first()
        .click();
      await expectHome('Li');
      const login = await page.evaluate(() => JSON.parse(localStorage.getItem('@bloom/activeLogin') ?? '{}'));
      expect(login.project.reference).toBe(`Project/${project.id}`);
      await context.close();
      expect(pageProblems).toEqual([]);
    }
  }, 90_000);

  it('a user without memberships creates a project; an empty name is refused (SPEC §2 step 6)', async () => {
    // A user registered without a project: auth/newuser only.
    const setup = new BloomClient({
      baseUrl: suite.bloom.apiBaseUrl,
      storage: new PrefixedStorage(new MemoryStorage()),
    });
    await setup.startNewUser({
      firstName: 'Rosa',
      lastName: 'Lind',
      email: 'rosa.lind@bloom.example',
      password: 'a-long-unusual-passphrase-42',
    });
    for (const width of widths) {
      await openPage(width);
      await page.goto(suite.url('/signin'));
      await enterEmail('rosa.lind@bloom.example');
      await enterPassword('a-long-unusual-passphrase-42');
      await page.getByRole('heading', { name: 'Create project' }).waitFor();
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByText('Project name is required').waitFor();
      await shot('6-create-project', width);
      if (width === 1280) {
        await page.getByLabel(/^Project Name/).fill('Lind Midwifery');
        await page.getByRole('button', { name: 'Create project' }).click();
        await expectHome('Rosa');
      }
      await context.close();
      expect(pageProblems).toEqual([]);
    }
  }, 90_000);

  it('with ?scope=, chooses scopes with Set scope (SPEC §2 step 5)', async () => {
    for (const width of widths) {
      await openPage(width);
      await page.goto(suite.url('/signin?scope=openid%20profile%20offline_access'));
      await enterEmail('maria@bloom.example');
      await enterPassword(PASSWORD);
      await page.getByRole('heading', { name: 'Choose scope' }).waitFor();
      await expect(page.getByRole('checkbox').count()).resolves.toBe(3);
      await page.getByRole('checkbox', { name: 'offline_access' }).uncheck();
      await shot('5-choose-scope', width);
      await page.getByRole('button', { name: 'Set scope' }).click();
      await expectHome('Maria');
      await context.close();
      expect(pageProblems).toEqual([]);
    }
  }, 90_000);

  it('forgot password: the emailed link sets a new password, which then signs in (SPEC §2, issue #3)', async () => {
    const setup = new BloomClient({
      baseUrl: suite.bloom.apiBaseUrl,
      storage: new PrefixedStorage(new MemoryStorage()),
    });
    await setup.startNewUser({
      firstName: 'Ines',
      lastName: 'Moreau',
      email: 'ines.moreau@bloom.example',
      password: 'a-long-unusual-passphrase-42',
    });
    await openPage(375);
    await page.goto(suite.url('/signin'));
    await enterEmail('ines.moreau@bloom.example');
    await page.getByRole('link', { name: 'Forgot password' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel(/^Email/).fill('ines.moreau@bloom.example');
    await shot('8-reset-password', 375);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText(/a reset link is on its way/).waitFor();

    // The server had no SMTP: the email is in DATA_DIR/outbox/.
    const outbox = path.join(suite.bloom.dataDir, 'outbox');
    const files = fs.readdirSync(outbox).filter((name) => name.endsWith('.eml'));
    const email = files
      .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
      .find((text) => text.includes('ines.moreau'));
    const link = email?.match(/https?:\/\/\S+\/setpassword\/\S+/)?.[0];
    expect(link).toBeDefined();
    // The link names the app origin the server knows; open the same path on this app.
    await page.goto(suite.url(new URL(link as string).pathname));
    await page.getByLabel(/^New password/).fill('another-unusual-passphrase-7');
    await page.getByLabel(/^Confirm new password/).fill('another-unusual-passphrase-7');
    await shot('9-set-password', 375);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password has been set.').waitFor();
    // The link works once.
    await page.goto(suite.url(new URL(link as string).pathname));
    await page.getByLabel(/^New password/).fill('third-unusual-passphrase-9');
    await page.getByLabel(/^Confirm new password/).fill('third-unusual-passphrase-9');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('alert').waitFor();

    await expect(
      setup.startLogin({ email: 'ines.moreau@bloom.example', password: 'another-unusual-passphrase-7' }),
    ).resolves.toHaveProperty('login');
  });
});
