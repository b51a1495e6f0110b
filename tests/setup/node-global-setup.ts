// Runs once before the node test project. PGlite's initdb costs seconds per database, so one
// migrated template is made here and every server test file opens a copy of it (~1 s each).
// The template is cached in the OS temp dir, keyed by the migrations' source and PGlite's version,
// so runs that change neither (and runs of tests/fhir alone) pay nothing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openPGlite } from '../../src/server/db';
import { PGLITE_TEMPLATE_ENV } from '../server/support/pglite-template';

function templatePath(): string {
  const hash = crypto.createHash('sha256');
  hash.update(fs.readFileSync(path.join(process.cwd(), 'src/server/db/migrations.ts')));
  hash.update(fs.readFileSync(path.join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json')));
  return path.join(os.tmpdir(), `bloom-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

export default async function globalSetup(): Promise<void> {
  const target = templatePath();
  if (!fs.existsSync(target)) {
    const db = await openPGlite();
    try {
      await migrate(db);
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
