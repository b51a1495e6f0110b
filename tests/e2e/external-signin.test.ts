// External sign-in in Chromium (SPEC §2 email step with the external-sign-in button and 'or',
// §4 Login): the demo clinic's domain bloom.example is given a real OpenID provider (oidc-provider on
// loopback, PKCE required); Maria types her email, takes 'Sign in with bloom.example', signs in at the
// provider's own pages, and lands on the app's home page signed in through the app's ClientApplication
// (config.json clientId). An account the clinic does not know comes back to /signin with the error.
import type { DomainConfiguration } from '@medplum/fhirtypes';
import type { Page } from 'playwright-core';
import { startExternalIdp, type RunningIdp } from '../server/auth/support/external-idp';
import { useDemoSuite } from './support/demo-suite';

const suite = useDemoSuite();
let idp: RunningIdp;
let page: Page;

beforeAll(async () => {
  idp = await startExternalIdp(
    [
      {
        client_id: 'bloom-e2e-pkce',
        client_secret: 'e2e-secret',
        redirect_uris: [`${suite.bloom.apiBaseUrl}auth/external`],
      },
    ],
    {
      'maria-at-provider': { email: 'maria@bloom.example', email_verified: true },
      stranger: { email: 'stranger@bloom.example', email_verified: true },
    },
  );
  await suite.bloom.systemRepo.createResource<DomainConfiguration>({
    resourceType: 'DomainConfiguration',
    domain: 'bloom.example',
    identityProvider: {
      authorizeUrl: idp.authorizeUrl,
      tokenUrl: idp.tokenUrl,
      userInfoUrl: idp.userInfoUrl,
      clientId: 'bloom-e2e-pkce',
      clientSecret: 'e2e-secret',
      usePkce: true,
    },
  });
}, 60_000);

afterAll(async () => {
  await idp?.stop();
});

beforeEach(async () => {
  ({ page } = await suite.openWindow(1280));
});

async function signInAtProvider(account: string): Promise<void> {
  await page.goto(suite.url('/signin'));
  await page.getByRole('textbox', { name: /^Email/ }).fill('maria@bloom.example');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('or', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Sign in with bloom.example' }).click();
  // The provider's own pages: login, then consent.
  await page.getByRole('textbox', { name: 'Account' }).fill(account);
  expect(new URL(page.url()).origin).toBe(idp.issuer);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Allow' }).click();
}

describe('issue #3 external identity provider in Chromium', () => {
  it("SPEC §4 Maria signs in at her domain's provider and lands on home, as the app's ClientApplication", async () => {
    await signInAtProvider('maria-at-provider');
    await page.getByRole('heading', { level: 1, name: 'Hello Maria' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const config = await page.evaluate(async () => (await fetch('/config.json')).json());
    expect(config.clientId).toEqual(expect.any(String));
    const login = await page.evaluate(() => JSON.parse(localStorage.getItem('@bloom/activeLogin') ?? '{}'));
    const claims = JSON.parse(Buffer.from(login.accessToken.split('.')[1], 'base64url').toString());
    expect(claims.client_id).toBe(config.clientId);
    expect(login.profile.reference).toMatch(/^Patient\//);
  });

  it('an account the clinic does not know comes back to /signin with the error', async () => {
    await signInAtProvider('stranger');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('User not found');
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await page.evaluate(() => localStorage.getItem('@bloom/activeLogin'))).toBeNull();
  });
});
