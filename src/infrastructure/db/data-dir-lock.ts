import { mkdirSync } from 'node:fs';
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

/**
 * PGlite is a single-process database: two processes writing one directory corrupt it. An exclusive lock
 * (refreshed while we run, considered stale if its owner died more than `staleMs` ago) guards the directory.
 */
export async function lockDataDirectory(dir: string, staleMs = 10_000): Promise<() => Promise<void>> {
  const dataDir = resolve(dir);
  mkdirSync(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, '.in-use.lock'),
      stale: staleMs,
      update: Math.max(1000, Math.floor(staleMs / 2)),
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
}
