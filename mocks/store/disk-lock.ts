/** One emulator per data directory (disk.ts): a lock file holding the owner's pid. Node only. */
import fs from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'emulator.pid';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * One emulator per data directory: each keeps the records in memory too, so two would silently diverge.
 * The lock is a file holding the owner's pid; one left by a process that no longer runs (killed) is taken over.
 */
export function lockDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const owner = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner)) {
        throw new Error(`the data directory ${dir} is in use by another emulator (pid ${owner})`, { cause: error });
      }
      if (owner === process.pid) throw new Error(`the data directory ${dir} is already open in this process`, { cause: error });
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock the data directory ${dir}`);
}

export function unlockDirectory(dir: string): void {
  const file = path.join(dir, LOCK_FILE);
  try {
    if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

