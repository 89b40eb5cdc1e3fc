import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** PostgreSQL writes PG_VERSION last thing in initdb; PGlite looks for it to decide whether to create the cluster. */
export const isInitialised = (dataDir: string): boolean => existsSync(join(dataDir, 'PG_VERSION'));

// Run by a bare `node` (no loader of ours, no tsx): PGlite by absolute URL, the directory and settings as arguments.
const CHILD = `
const [url, dataDir, startParams] = process.argv.slice(1);
const module = await import(url);
const { PGlite } = module.PGlite ? module : module.default;
const db = await PGlite.create(dataDir, { startParams: JSON.parse(startParams) });
await db.close();
`;

/**
 * Creates the PostgreSQL cluster of a new embedded data directory in a short-lived child process. PGlite's initdb
 * runs a second WebAssembly PostgreSQL in memory and copies its result across: ~770 MB of resident memory at its
 * peak, which a process keeps as its high-water mark (and V8 its heap reservation) for life. In a child, that
 * memory is returned to the system when the directory is ready, and the service opens it as on any restart.
 */
export function initialiseDataDirectory(dataDir: string, startParams: string[]): Promise<void> {
  const pglite = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '--eval', CHILD, pglite, dataDir, JSON.stringify(startParams)],
      { maxBuffer: 1 << 20 },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const detail = stderr.trim().split('\n').slice(-5).join('\n');
        reject(new Error(`could not create the embedded database in ${dataDir}: ${detail || error.message}`));
      },
    );
  });
}
