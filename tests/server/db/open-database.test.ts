// Opening the configured database: PGlite on disk keeps data across restarts, and one data
// directory serves one process at a time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Patient } from '@medplum/fhirtypes';
import { DataDirInUseError, lockDataDir, openDatabase } from '../../../src/server/db';
import { migrateServer } from '../../../src/server/migrations';
import { Repository, systemContext } from '../../../src/server/repo';

describe('openDatabase with PGlite in DATA_DIR', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-data-'));
  });

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a resource written before a clean close is there after reopening', async () => {
    const first = await openDatabase({ dataDir });
    expect(first.engine).toBe('pglite');
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
    await migrateServer(first);
    const created = await new Repository(first, systemContext()).createResource<Patient>({
      resourceType: 'Patient',
      gender: 'female',
    });
    await first.close();

    const second = await openDatabase({ dataDir });
    try {
      expect(await migrateServer(second)).toEqual([]);
      expect(await new Repository(second, systemContext()).readResource('Patient', created.id!)).toEqual(
        created,
      );
    } finally {
      await second.close();
    }
  });

  test('a second server on the same DATA_DIR is refused with a clear message; after close it may open', async () => {
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(DataDirInUseError);
    await expect(openDatabase({ dataDir })).rejects.toThrow(/already open in this process/);
    await first.close();
    const again = await openDatabase({ dataDir });
    await again.close();
  });
});

describe('lockDataDir', () => {
  test('a lock left by a process that no longer runs is taken over', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-lock-'));
    // Far above Linux's default pid_max (4194304), so no such process can exist.
    fs.writeFileSync(path.join(dir, 'bloom.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'bloom.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'bloom.lock'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a lock naming this process but not taken by it (a restarted container is pid 1 again) is stale', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-lock-'));
    fs.writeFileSync(path.join(dir, 'bloom.lock'), String(process.pid));
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/already open in this process/);
    release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a lock held by another running process is refused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bloom-lock-'));
    // The jest parent process is alive for the whole run.
    fs.writeFileSync(path.join(dir, 'bloom.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`in use by another Bloom server (process ${process.ppid})`);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
