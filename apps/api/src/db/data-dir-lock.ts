import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock on the embedded database directory. PGlite is single-process: two
 * processes on one directory were seen to lose writes silently, so the second one must refuse
 * to start. A lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, 'portal.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processIsAlive(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${dir} is in use by another process (pid ${holder}). ` +
            'Stop that process, use another PORTAL_DATA_DIR, or set DATABASE_URL to share a PostgreSQL server.',
        );
      }
      if (holder === process.pid) {
        throw new DataDirLockedError(`The embedded database in ${dir} is already open in this process.`);
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the embedded database in ${dir}.`);
}
