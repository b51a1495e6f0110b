// One process per PGlite data directory: two servers writing the same files would corrupt them
// (and the Repository's read cache relies on seeing every write). A lock file holds the owner's pid;
// a lock left by a process that no longer runs is taken over.
import fs from 'node:fs';
import path from 'node:path';

export class DataDirInUseError extends Error {}

/** Directories this process holds. A lock file naming our own pid but absent here is stale (a restarted container is pid 1 again). */
const heldHere = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock on `dir` for this process; returns the function that releases it. */
export function lockDataDir(dir: string): () => void {
  const lockPath = path.join(path.resolve(dir), 'bloom.lock');
  if (heldHere.has(lockPath)) {
    throw new DataDirInUseError(`The database in ${dir} is already open in this process`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      heldHere.add(lockPath);
      return () => {
        heldHere.delete(lockPath);
        fs.rmSync(lockPath, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw err;
      }
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new DataDirInUseError(
          `The database in ${dir} is in use by another Bloom server (process ${owner}); stop it or set DATA_DIR to another directory`,
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock ${dir}`);
}
