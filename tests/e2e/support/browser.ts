// Launches Debian's Chromium through playwright-core (ARCHITECTURE.md "Tests"). The machines have no network
// beyond the package registries, so everything that would phone home is switched off.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `e2e: Chromium not found at ${chromiumPath}. Install it with 'apt-get install -y chromium' ` +
        'or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}
