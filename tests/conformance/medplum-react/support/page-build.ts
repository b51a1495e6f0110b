// The medplum-react test page, built once per change: Vite's build (build-page.mjs) writes it to a
// directory in the OS temp dir keyed by the page's source and the versions of what it bundles, so
// the files of a run (and later runs) share one build. Written then renamed, so a concurrent jest
// worker never serves half a build.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const pageDir = path.join(__dirname, '../page');
const buildScript = path.join(__dirname, 'build-page.mjs');
const bundled = ['@medplum/core', '@medplum/react', '@mantine/core', 'react', 'react-dom', 'vite'];

function buildKey(): string {
  const hash = crypto.createHash('sha256');
  for (const file of fs.readdirSync(pageDir).sort()) hash.update(fs.readFileSync(path.join(pageDir, file)));
  hash.update(fs.readFileSync(buildScript));
  for (const name of bundled) {
    hash.update(fs.readFileSync(path.join(process.cwd(), 'node_modules', name, 'package.json')));
  }
  return hash.digest('hex').slice(0, 16);
}

export interface PageBuild {
  readonly dir: string;
  /** Milliseconds Vite took, or 0 when an earlier build was reused. */
  readonly buildMs: number;
}

/** The built page's directory (index.html and assets/). */
export function ensurePageBuilt(): PageBuild {
  const dir = path.join(os.tmpdir(), `bloom-medplum-react-page-${buildKey()}`);
  if (fs.existsSync(path.join(dir, 'index.html'))) return { dir, buildMs: 0 };
  const partial = `${dir}.${process.pid}.partial`;
  const started = Date.now();
  // Jest sets NODE_ENV=test; the page is built as a production app is.
  const result = spawnSync(process.execPath, [buildScript, partial], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0 || !fs.existsSync(path.join(partial, 'index.html'))) {
    throw new Error(`medplum-react: building the test page failed (build-page.mjs exited ${result.status})`);
  }
  const buildMs = Date.now() - started;
  try {
    fs.renameSync(partial, dir);
  } catch {
    // Another worker finished the same build first: use its copy.
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return { dir, buildMs };
}
