// SPEC §2 signed-out routes in a real browser against a real server: Chromium opens the landing page, follows
// Log in and Sign up, and checks an unknown path lands on /).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { useDemoSuite } from './support/demo-suite';

const screenshotDir = path.join(os.tmpdir(), 'bloom-e2e');

// No demo clinic; every console error fails a test, a failed load too (e.g. a CSP violation).
const suite = useDemoSuite({ seed: false, failedLoadsAreProblems: true });
let page: Page;
/** Console errors and uncaught exceptions of the current page, checked after every test. */
let pageProblems: string[];

beforeAll(() => {
  fs.mkdirSync(screenshotDir, { recursive: true });
});

async function openPage(width: number, height: number): Promise<Page> {
  ({ page, problems: pageProblems } = await suite.openWindow(width, height));
  return page;
}

describe('SPEC §2 signed-out app in Chromium', () => {
  it('serves /config.json with the API base URL the app will use', async () => {
    const response = await fetch(suite.url('/config.json'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ baseUrl: suite.bloom.apiBaseUrl });
  });

  it('shows the landing page: header, hero text, an illustration, footer with the current year', async () => {
    await openPage(1280, 900);
    await page.goto(suite.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();
    await expect(
      page.getByRole('banner').getByRole('link', { name: 'Bloom home' }).isVisible(),
    ).resolves.toBe(true);
    const image = page.getByRole('img', { name: /flower in full bloom/ });
    await image.waitFor();
    // The illustration really loaded (same origin, allowed by the CSP), not just an <img> with alt text.
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.getByRole('contentinfo').textContent()).resolves.toContain(
      `© ${new Date().getFullYear()} Bloom`,
    );
    await page.screenshot({ path: path.join(screenshotDir, 'landing-1280.png'), fullPage: true });
  });

  it('the landing page scripts arrive brotli-compressed, long-cached, with Vary: Accept-Encoding', async () => {
    await openPage(1280, 900);
    const scripts: { url: string; encoding?: string; vary?: string; cache?: string }[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push({ url: response.url(), ...pickHeaders(response.headers()) });
    });
    await page.goto(suite.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script).toEqual({
        url: script.url,
        encoding: 'br',
        vary: expect.stringMatching(/accept-encoding/i),
        cache: 'public, max-age=31536000, immutable',
      });
    }
  });

  it('follows Log in to /signin, goes back, and follows Sign up to /register', async () => {
    await openPage(1280, 900);
    await page.goto(suite.url('/'));
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(suite.url('/signin'));
    await page.getByRole('heading', { name: 'Sign in to Bloom' }).waitFor();
    expect(await page.title()).toBe('Sign in · Bloom');
    const email = page.getByRole('textbox', { name: /^Email/ });
    expect(await email.getAttribute('type')).toBe('email');
    expect(await email.evaluate((input: HTMLInputElement) => input.required)).toBe(true);
    await expect(page.getByRole('button', { name: 'Next' }).isVisible()).resolves.toBe(true);

    await page.goBack();
    await page.waitForURL(suite.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();

    await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(suite.url('/register'));
    await page.getByRole('heading', { name: 'Register with Bloom' }).waitFor();
    for (const label of [/^First name/, /^Last name/, /^Email/, /^Password/]) {
      await expect(page.getByLabel(label).isVisible()).resolves.toBe(true);
    }
  });

  it.each(['/no/such/page', '/health-record/lab-results'])(
    'an unknown path (%s) lands on /',
    async (pathname) => {
      await openPage(1280, 900);
      await page.goto(suite.url(pathname));
      await page.waitForURL(suite.url('/'));
      await page.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
    },
  );

  it('SPEC §7 the sign-in form reaches the API across origins (CORS and CSP allow it)', async () => {
    await openPage(375, 812);
    await page.goto(suite.url('/signin'));
    await page.getByRole('textbox', { name: /^Email/ }).fill('maria@bloom.example');
    const answer = page.waitForResponse(
      (response) => response.url() === `${suite.bloom.apiBaseUrl}auth/method`,
    );
    await page.getByRole('button', { name: 'Next' }).click();
    const response = await answer;
    if (response.status() < 400) {
      // The API answered: the app moves on to the password step, which it
      // could not do had CORS or CSP blocked the answer.
      await page.getByLabel(/^Password/).waitFor();
      await page.screenshot({ path: path.join(screenshotDir, 'signin-answered-375.png'), fullPage: true });
      return;
    }
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).not.toContain('Could not reach the server');
    await page.screenshot({ path: path.join(screenshotDir, 'signin-answered-375.png'), fullPage: true });
    // SPEC §8: the server's OperationOutcome text is what the user reads.
    const outcome = (await response.json()) as { issue: { details?: { text?: string } }[] };
    expect(text).toContain(outcome.issue[0].details?.text);
    // Chromium logs every 4xx fetch as a console error; that one is expected here.
    const unexpected = pageProblems.filter((problem) => !/status of 4\d\d/.test(problem));
    pageProblems.splice(0, pageProblems.length, ...unexpected);
  });

  it('shows a visible focus ring when moving through the actions with the keyboard', async () => {
    await openPage(1280, 900);
    await page.goto(suite.url('/'));
    await page.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();
    const visited: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      visited.push(
        await page.evaluate(() => {
          const element = document.activeElement as HTMLElement;
          const style = getComputedStyle(element);
          return `${element.textContent?.trim()}: ${style.outlineStyle} ${style.outlineWidth}`;
        }),
      );
    }
    expect(visited).toEqual(
      ['Skip to content', 'Bloom', 'Log in', 'Sign up', 'Sign up', 'Log in'].map(
        (text) => `${text}: solid 3px`,
      ),
    );
  });

  it.each([375, 320])(
    'fits a %i px phone: Log in and Sign up on one line, no horizontal scroll',
    async (width) => {
      await openPage(width, 812);
      await page.goto(suite.url('/'));
      await page.getByRole('heading', { level: 1, name: 'Care that grows with you' }).waitFor();
      const header = page.getByRole('banner');
      for (const name of ['Log in', 'Sign up']) {
        const box = await header.getByRole('link', { name }).boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        // One line of text: a wrapped label would make the button much taller than the 36 px MUI default.
        expect(box!.height).toBeLessThanOrEqual(40);
      }
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      await page.screenshot({ path: path.join(screenshotDir, `landing-${width}.png`), fullPage: true });
      for (const pathname of ['/signin', '/register']) {
        await page.goto(suite.url(pathname));
        await page
          .getByRole('button', { name: pathname === '/signin' ? 'Next' : 'Create account' })
          .waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({
          path: path.join(screenshotDir, `${pathname.slice(1)}-${width}.png`),
          fullPage: true,
        });
      }
    },
  );
});

/** The delivery headers of a response, as Chromium received them. */
function pickHeaders(headers: Record<string, string>) {
  return { encoding: headers['content-encoding'], vary: headers.vary, cache: headers['cache-control'] };
}
