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
  /** When the process started (Linux only): a pid given to a new process after the owner's death is told apart. */
  startTime?: string;
}

const LOCK_NAME = '.in-use.lock';
const OWNER_NAME = '.in-use.owner.json';

/**
 * PGlite is a single-process database: two processes writing one directory corrupt it. An exclusive lock
 * (refreshed while we run, considered stale if its owner died more than `staleMs` ago) guards the directory.
 * `staleMs` is long (60 s) because a refresh that comes later than it makes the lock "compromised" and the process
 * exit: PGlite's start-up blocks the event loop for seconds on a busy machine, and with 10 s that killed healthy
 * processes. A dead owner on this host is detected by its pid instead (below), so the long value costs no wait.
 * Beside the lock we record its owner's pid, host and start time: a lock whose owner is known to be gone (same host,
 * and no such process, or one that has exited, or another process given the same pid) is taken over at once, so a
 * restart after kill -9 does not wait out `staleMs`.
 */
export async function lockDataDirectory(dir: string, staleMs = 60_000): Promise<() => Promise<void>> {
  const dataDir = resolve(dir);
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_NAME);
  const ownerPath = join(dataDir, OWNER_NAME);
  if (ownerIsGone(readOwner(ownerPath))) rmSync(lockPath, { recursive: true, force: true });
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
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), startTime: processStatus(process.pid)?.startTime };
  writeFileSync(ownerPath, JSON.stringify(owner));
  return async () => {
    rmSync(ownerPath, { force: true });
    await release();
  };
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.hostname !== 'string') return null;
    const startTime = typeof owner.startTime === 'string' ? owner.startTime : undefined;
    return { pid: owner.pid, hostname: owner.hostname, startTime };
  } catch {
    return null;
  }
}

/**
 * Only a process on this host can be checked; one elsewhere (a shared volume) is trusted until its lock goes stale.
 * A process that has exited but is not yet reaped by its parent (a zombie), or is still being torn down, answers
 * kill(pid, 0) as if alive, and a supervisor restarting at once always meets it; it runs no code any more and can
 * write nothing, so it counts as gone. A start time other than the recorded one means the pid has since been given
 * to another process: a restarted container, say, runs the service under the same pid again, even this very one.
 */
function ownerIsGone(owner: LockOwner | null): boolean {
  if (!owner || owner.hostname !== hostname()) return false;
  const differentProcess = (startTime: string | undefined) =>
    owner.startTime !== undefined && startTime !== undefined && startTime !== owner.startTime;
  if (owner.pid === process.pid) return differentProcess(processStatus(process.pid)?.startTime);
  const status = processStatus(owner.pid);
  if (status) return status.exited || differentProcess(status.startTime);
  // Not Linux (no /proc), or no such process: ask the kernel.
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    // EPERM: the process exists but belongs to another user — alive.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** PF_EXITING in the kernel's flags of a task: set once it has begun to exit (include/linux/sched.h). */
const PF_EXITING = 0x4;

/**
 * Whether a process has exited (state Z, zombie, or X, dead; or exiting under way) and its start time in clock ticks
 * after boot, from /proc/<pid>/stat (proc(5): fields 3, 9 and 22); null without /proc or without such a process.
 * The command name, field 2, is in parentheses and may itself hold spaces and parentheses, so fields are counted
 * from the last ')'.
 */
function processStatus(pid: number): { exited: boolean; startTime: string } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, flags, startTime] = [fields[0], Number(fields[6]), fields[19]];
  if (!state || !Number.isInteger(flags) || !startTime || !/^\d+$/.test(startTime)) return null;
  return { exited: state === 'Z' || state === 'X' || (flags & PF_EXITING) !== 0, startTime };
}
