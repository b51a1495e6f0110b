// The e2e tests drive the built app (dist/app), as `npm start` serves it. scripts/build.mjs rebuilds it only
// when src/app (or what it imports) is newer than the bundle, so a stale build is never tested.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const appDistDir = path.join(process.cwd(), 'dist/app');

export function ensureAppBuilt(): void {
  // Jest sets NODE_ENV=test, which would make Vite bundle React's development build: test the real one.
  const result = spawnSync(process.execPath, ['scripts/build.mjs', '--only=app'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0 || !fs.existsSync(path.join(appDistDir, 'index.html'))) {
    throw new Error(
      `e2e: building the app failed (scripts/build.mjs --only=app exited with ${result.status})`,
    );
  }
}
