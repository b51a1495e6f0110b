// One seeded Bloom and one Chromium for a file of e2e tests signed in as Maria, the demo patient
// (issues #7, #8): started before all tests, stopped after them. Each test's window is closed after it,
// and the console errors and uncaught exceptions it saw fail that test.
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { signInAsPatient, type PatientPage } from './patient-session';
import { startBloom, type RunningBloom } from './server';

export interface MariaSuite {
  /** The running server and app (available from the suite's beforeAll on). */
  readonly bloom: RunningBloom;
  /** Signs Maria in through the real screens in a new window of the given width. */
  signIn(width: number): Promise<PatientPage>;
}

export function useMariaSuite(): MariaSuite {
  let bloom: RunningBloom | undefined;
  let browser: Browser | undefined;
  let session: PatientPage | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    bloom = await startBloom({ seed: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await bloom?.stop();
  });

  afterEach(async () => {
    const problems = session?.problems ?? [];
    await session?.context.close();
    session = undefined;
    expect(problems).toEqual([]);
  });

  function started(): { bloom: RunningBloom; browser: Browser } {
    if (!bloom || !browser) throw new Error('The Maria suite has not started (its beforeAll failed?)');
    return { bloom, browser };
  }

  return {
    get bloom() {
      return started().bloom;
    },
    async signIn(width) {
      const running = started();
      session = await signInAsPatient(running.browser, running.bloom.appUrl, {
        email: 'maria@bloom.example',
        greeting: 'Hello Maria',
        width,
      });
      return session;
    },
  };
}
