import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/infrastructure/db/connect.js';
import { DataDirectoryInUseError, lockDataDirectory } from '../../src/infrastructure/db/data-dir-lock.js';
import { spawnUnreaped, untilZombie } from '../helpers/unreaped-child.js';
import { usingPostgres } from '../helpers/database.js';

const dir = mkdtempSync(join(tmpdir(), 'fx-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(usingPostgres())('the embedded data directory is used by one process at a time', () => {
  it('refuses a second opener with a clear message, and admits one after the first closes', async () => {
    const first = await connectDatabase({ dataDir: dir });
    try {
      const second = connectDatabase({ dataDir: dir });
      await expect(second).rejects.toBeInstanceOf(DataDirectoryInUseError);
      await expect(second).rejects.toThrow(/already in use by another process/);
    } finally {
      await first.close();
    }
    const third = await connectDatabase({ dataDir: dir });
    await third.close();
  }, 120_000);
});

/** A scratch data directory, removed after `use`. */
async function withDataDir(use: (dir: string) => Promise<void>): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'fx-lock-'));
  try {
    await use(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot. */
const startTime = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

/** The lock as a process left it: the lock directory, fresh, and the owner file naming that process. */
function lockLeftBy(dir: string, owner: { pid: number; startTime?: string }) {
  mkdirSync(join(dir, '.in-use.lock'));
  writeFileSync(join(dir, '.in-use.owner.json'), JSON.stringify({ ...owner, hostname: hostname() }));
}

describe.runIf(process.platform === 'linux' && !usingPostgres())('the owner of the lock, as /proc tells it', () => {
  it('a killed owner its parent has not reaped yet (a zombie) is gone: its lock is taken at once', async () => {
    await withDataDir(async (dir) => {
      const script = `import { lockDataDirectory } from './src/infrastructure/db/data-dir-lock.ts';
        await lockDataDirectory(${JSON.stringify(dir)}); console.log('LOCKED'); setInterval(() => {}, 1000);`;
      const holder = spawnUnreaped(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
      try {
        const pid = await holder.pid;
        while (!holder.output().stdout.includes('LOCKED')) await new Promise((resolve) => setTimeout(resolve, 20));
        await expect(lockDataDirectory(dir)).rejects.toBeInstanceOf(DataDirectoryInUseError);

        process.kill(pid, 'SIGKILL');
        await untilZombie(pid);
        // The kernel still answers for the pid: asking it alone took the zombie for a live owner.
        expect(() => process.kill(pid, 0)).not.toThrow();
        // The lock is fresh (the stale limit is 60 s): only the owner check lets this in.
        const release = await lockDataDirectory(dir);
        await release();
      } finally {
        await holder.release();
      }
    });
  }, 120_000);

  it('a pid given to another process since is no owner; the owner itself, alive, still holds the lock', async () => {
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      const pid = other.pid!;
      await withDataDir(async (dir) => {
        lockLeftBy(dir, { pid, startTime: startTime(pid) });
        await expect(lockDataDirectory(dir)).rejects.toBeInstanceOf(DataDirectoryInUseError);
      });
      await withDataDir(async (dir) => {
        lockLeftBy(dir, { pid, startTime: String(Number(startTime(pid)) - 1) });
        await (
          await lockDataDirectory(dir)
        )();
      });
      // No start time recorded (an owner file from before it was): the live pid is trusted, as it always was.
      await withDataDir(async (dir) => {
        lockLeftBy(dir, { pid });
        await expect(lockDataDirectory(dir)).rejects.toBeInstanceOf(DataDirectoryInUseError);
      });
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('this very pid with another start time is an earlier process (a restarted container): its lock is taken', async () => {
    await withDataDir(async (dir) => {
      lockLeftBy(dir, { pid: process.pid, startTime: String(Number(startTime(process.pid)) - 1) });
      await (
        await lockDataDirectory(dir)
      )();
    });
    await withDataDir(async (dir) => {
      lockLeftBy(dir, { pid: process.pid, startTime: startTime(process.pid) });
      await expect(lockDataDirectory(dir)).rejects.toBeInstanceOf(DataDirectoryInUseError);
    });
  });
});
