import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirectoryInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `The embedded database directory ${dataDir} is already in use by another process ` +
        `(a running service or CLI). Stop that process first, or point DATABASE_URL at a PostgreSQL server ` +
        `to share one database between several processes.`,
    );
  }
}

interface LockOwner {
  pid: number;
  hostname: string;
}

const LOCK_NAME = '.in-use.lock';
const OWNER_NAME = '.in-use.owner.json';

/**
 * PGlite is a single-process database: two processes writing one directory corrupt it. An exclusive lock
 * (refreshed while we run, considered stale if its owner died more than `staleMs` ago) guards the directory.
 * `staleMs` is long (60 s) because a refresh that comes later than it makes the lock "compromised" and the process
 * exit: PGlite's start-up blocks the event loop for seconds on a busy machine, and with 10 s that killed healthy
 * processes. A dead owner on this host is detected by its pid instead (below), so the long value costs no wait.
 * Beside the lock we record its owner's pid and host: a lock whose owner is known to be dead (same host, no such
 * process) is taken over at once, so a restart after kill -9 does not wait out `staleMs`.
 */
export async function lockDataDirectory(dir: string, staleMs = 60_000): Promise<() => Promise<void>> {
  const dataDir = resolve(dir);
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_NAME);
  const ownerPath = join(dataDir, OWNER_NAME);
  if (ownerIsDead(readOwner(ownerPath))) rmSync(lockPath, { recursive: true, force: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: lockPath,
      stale: staleMs,
      update: Math.max(1000, Math.floor(staleMs / 6)),
      realpath: false,
      onCompromised: (err) => {
        // Someone removed our lock while we ran; refusing to continue is safer than risking corruption.
        console.error(`Lost the lock on ${dataDir}: ${err.message}. Exiting.`);
        process.exit(1);
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirectoryInUseError(dataDir);
    throw err;
  }
  writeFileSync(ownerPath, JSON.stringify({ pid: process.pid, hostname: hostname() } satisfies LockOwner));
  return async () => {
    rmSync(ownerPath, { force: true });
    await release();
  };
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.hostname === 'string'
      ? { pid: owner.pid, hostname: owner.hostname }
      : null;
  } catch {
    return null;
  }
}

/** Only a process on this host can be checked; one elsewhere (a shared volume) is trusted until its lock goes stale. */
function ownerIsDead(owner: LockOwner | null): boolean {
  if (!owner || owner.hostname !== hostname() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    // EPERM: the process exists but belongs to another user — alive.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
