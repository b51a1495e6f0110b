// One Bloom (API + built app, on its own in-memory database and DATA_DIR) and one Chromium for a file
// of e2e tests: started before all its tests, stopped after them, so no file sees another's changes.
// Every window a test opens is closed after that test, and the console errors and uncaught exceptions
// any of them saw fail it, and so does a GraphQL document any of them sent that is not a generated
// operation. A demo account signs in through the real screens until home greets it.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Database } from '../../../src/server/db';
import { getDemoAccount, type DemoAccount } from '../../../src/server/seed/demo';
import { launchChromium } from './browser';
import { signInAsDemo } from './demo-sign-in';
import { collectPageProblems } from './page-problems';
import { untypedDocuments } from '../../graphql/support/typed-documents';
import { recordGraphqlDocuments } from './sent-documents';
import { startBloom, type RunningBloom } from './server';

export type DemoAccountKey = DemoAccount['key'];

export interface SuiteOptions {
  /** Seed the demo clinic and its sign-ins, as `npm start` does (default true; false: an empty server). */
  readonly seed?: boolean;
  /** Count Chromium's "Failed to load resource" lines as problems too (default: left to the test). */
  readonly failedLoadsAreProblems?: boolean;
  /** More origins the API allows by CORS, read when the suite starts (a page served by the test). */
  readonly extraOrigins?: () => readonly string[];
  /** Opens the server's database (default: PGlite; tests/server/support/test-databases.ts kinds). */
  readonly openDatabase?: () => Promise<Database>;
  /**
   * Let the app's service worker run (default false: blocked). Playwright's `page.route` does not see
   * what a service worker answers from its cache, and many tests fail requests on purpose with it.
   */
  readonly serviceWorkers?: boolean;
}

export interface SuiteWindow {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions seen so far; checked after the test (filter it in place). */
  readonly problems: string[];
  /** The GraphQL documents the window sent from Bloom's app; each must be a generated operation (checked after the test). */
  readonly graphqlDocuments: string[];
}

export interface DemoSuite {
  /** The running server and app (available from the suite's beforeAll on). */
  readonly bloom: RunningBloom;
  /** An absolute URL of the app. */
  url(pathname: string): string;
  /** A new signed-out window (its own browser context) of the given size. */
  openWindow(width?: number, height?: number): Promise<SuiteWindow>;
  /** A new window of the given width with a demo account signed in through the sign-in screens. */
  signIn(account: DemoAccountKey, width?: number): Promise<SuiteWindow>;
}

export function useDemoSuite(options: SuiteOptions = {}): DemoSuite {
  let bloom: RunningBloom | undefined;
  let browser: Browser | undefined;
  let windows: SuiteWindow[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    bloom = await startBloom({
      seed: options.seed ?? true,
      extraOrigins: options.extraOrigins?.(),
      openDatabase: options.openDatabase,
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await bloom?.stop();
  });

  afterEach(async () => {
    const opened = windows;
    windows = [];
    for (const window of opened) await window.context.close();
    expect(opened.flatMap((window) => window.problems)).toEqual([]);
    expect(untypedDocuments(opened.flatMap((window) => window.graphqlDocuments))).toEqual([]);
  });

  function started(): { bloom: RunningBloom; browser: Browser } {
    if (!bloom || !browser) throw new Error('The e2e suite has not started (its beforeAll failed?)');
    return { bloom, browser };
  }

  async function openWindow(width = 1280, height = 900): Promise<SuiteWindow> {
    // Downloads are accepted (Playwright's default): the search table's exports are read from them.
    const context = await started().browser.newContext({
      viewport: { width, height },
      serviceWorkers: options.serviceWorkers ? 'allow' : 'block',
    });
    const page = await context.newPage();
    const problems = collectPageProblems(page, { failedLoads: options.failedLoadsAreProblems ?? false });
    const window = {
      context,
      page,
      problems,
      graphqlDocuments: recordGraphqlDocuments(page, () => started().bloom.appUrl),
    };
    windows.push(window);
    return window;
  }

  return {
    get bloom() {
      return started().bloom;
    },
    url(pathname) {
      return new URL(pathname, started().bloom.appUrl).toString();
    },
    openWindow,
    async signIn(account, width) {
      const window = await openWindow(width);
      const { email, givenName } = getDemoAccount(account);
      await signInAsDemo(window.page, started().bloom, email);
      await window.page.getByRole('heading', { level: 1, name: `Hello ${givenName}` }).waitFor();
      return window;
    },
  };
}
