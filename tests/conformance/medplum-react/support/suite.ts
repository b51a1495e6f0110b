// One Bloom (seeded demo clinic, e2e's useDemoSuite) and the medplum-react page on its own origin,
// which Bloom's CORS allows as it would a Medplum app's. A window opened here records every response
// from Bloom's API; after each test all of them must have been 2xx (the failure lists the others
// with their bodies). Signing in goes through Medplum's own SignInForm on the page.
import type { Page, Response } from 'playwright-core';
import { useDemoSuite, type DemoSuite, type SuiteWindow } from '../../../e2e/support/demo-suite';
import type { TestDatabaseKind } from '../../../server/support/test-databases';
import { ensurePageBuilt } from './page-build';
import { startPageServer, type PageServer } from './page-server';

export interface ApiResponse {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly body: Promise<string>;
}

export interface ComponentWindow extends SuiteWindow {
  /** Every response from Bloom's API this window received so far. */
  readonly responses: ApiResponse[];
}

export interface MedplumReactSuite {
  readonly demo: DemoSuite;
  /** An absolute URL of the page (its path chooses the component). */
  pageUrl(pathname: string): string;
  /** A new window with a demo account signed in through Medplum's SignInForm at `pathname`. */
  signIn(email: string, pathname: string, width?: number): Promise<ComponentWindow>;
}

/** Medplum's SignInForm: email, Continue, password, Sign In (the demo password), until it is gone. */
export async function signInWithMedplumForm(page: Page, email: string): Promise<void> {
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel(/^Password/).fill('bloom-demo');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.getByRole('heading', { level: 1, name: 'Medplum components' }).waitFor();
}

export interface MedplumReactSuiteOptions {
  /** The server's database: a kind from databases() (default PGlite). */
  readonly database?: TestDatabaseKind;
}

export function useMedplumReactSuite(options: MedplumReactSuiteOptions = {}): MedplumReactSuite {
  let pageServer: PageServer | undefined;
  let windows: ComponentWindow[] = [];

  // Registered before useDemoSuite's, so the page's origin is known when Bloom starts.
  beforeAll(async () => {
    const build = ensurePageBuilt();
    if (build.buildMs) console.log(`medplum-react: page built by Vite in ${build.buildMs} ms`);
    pageServer = await startPageServer(build.dir);
  }, 120_000);

  const demo = useDemoSuite({
    extraOrigins: () => (pageServer ? [pageServer.origin] : []),
    openDatabase: options.database?.open,
  });

  beforeAll(() => pageServer?.setApiBaseUrl(demo.bloom.apiBaseUrl));

  afterAll(async () => {
    await pageServer?.close();
  });

  afterEach(async () => {
    const checked = windows;
    windows = [];
    const failed: string[] = [];
    for (const response of checked.flatMap((window) => window.responses)) {
      if (response.status < 200 || response.status > 299) {
        failed.push(`${response.status} ${response.method} ${response.url}: ${await response.body}`);
      }
    }
    expect(failed).toEqual([]);
  });

  function pageUrl(pathname: string): string {
    if (!pageServer) throw new Error('The medplum-react suite has not started');
    return new URL(pathname, pageServer.origin).toString();
  }

  function record(window: SuiteWindow): ComponentWindow {
    const responses: ApiResponse[] = [];
    const apiBase = demo.bloom.apiBaseUrl;
    window.page.on('response', (response: Response) => {
      if (!response.url().startsWith(apiBase)) return;
      const request = response.request();
      responses.push({
        method: request.method(),
        url: response.url(),
        status: response.status(),
        body: response.text().catch((err: unknown) => `(no body: ${String(err)})`),
      });
    });
    const recorded = { ...window, responses };
    windows.push(recorded);
    return recorded;
  }

  return {
    demo,
    pageUrl,
    async signIn(email, pathname, width) {
      const window = record(await demo.openWindow(width));
      await window.page.goto(pageUrl(pathname));
      await signInWithMedplumForm(window.page, email);
      return window;
    },
  };
}
