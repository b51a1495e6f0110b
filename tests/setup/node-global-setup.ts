// Runs once before the node test project. PGlite's initdb costs seconds per database, so one
// migrated template is made here and every server test file opens a copy of it (~1 s each).
// The template is cached in the OS temp dir, keyed by the source of every server file that defines
// schema (each module's migrations.ts and the DDL they call) and PGlite's version, so runs that
// change neither (and runs of tests/fhir alone) pay nothing.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPGlite } from '../../src/server/db';
import { migrateServer } from '../../src/server/migrations';
import { PGLITE_TEMPLATE_ENV } from '../server/support/pglite-template';

/** Files under src/server that shape the schema: migrations, and modules that hold DDL for them. */
function schemaSources(): string[] {
  const root = path.join(process.cwd(), 'src/server');
  const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return files
    .sort()
    .map((file) => path.join(root, file))
    .filter(
      (file) => /migration/.test(path.basename(file)) || /\bCREATE\s/.test(fs.readFileSync(file, 'utf8')),
    );
}

function templatePath(): string {
  const hash = crypto.createHash('sha256');
  for (const file of schemaSources()) {
    hash.update(path.relative(process.cwd(), file));
    hash.update(fs.readFileSync(file));
  }
  hash.update(fs.readFileSync(path.join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json')));
  return path.join(os.tmpdir(), `bloom-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** PGlite runs in a worker thread loaded from its bundle: build it when a source changed. */
function buildPgliteWorker(): void {
  const result = spawnSync(process.execPath, ['scripts/build-pglite-worker.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error('scripts/build-pglite-worker.mjs failed');
  }
}

export default async function globalSetup(): Promise<void> {
  buildPgliteWorker();
  const target = templatePath();
  if (!fs.existsSync(target)) {
    const db = await openPGlite();
    try {
      await migrateServer(db);
      const dump = await db.dump();
      // Write then rename, so a concurrent run never reads half a file.
      const partial = `${target}.${process.pid}.partial`;
      fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      fs.renameSync(partial, target);
    } finally {
      await db.close();
    }
  }
  process.env[PGLITE_TEMPLATE_ENV] = target;
}
