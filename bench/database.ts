import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createScratchPostgresDatabase } from '../test/helpers/scratch-postgres.js';

/** Where one bench run keeps its data: a fresh database on a PostgreSQL server, or a fresh embedded data dir. */
export type BenchDatabase =
  | { kind: 'postgres'; url: string; location: string; drop(): Promise<void> }
  | { kind: 'embedded'; dataDir: string; location: string; drop(): Promise<void> };

/**
 * A fresh database, so every run starts from the same state (migrations, demo data, empty tables). With a server
 * URL it is created on that server and dropped afterwards (unless BENCH_KEEP_DATABASE is set).
 */
export async function createBenchDatabase(serverUrl: string | undefined, workDir: string): Promise<BenchDatabase> {
  if (!serverUrl) {
    const dataDir = join(workDir, 'data');
    // The work directory (and with it this data dir) is removed by the caller.
    return {
      kind: 'embedded',
      dataDir,
      location: `embedded in the service process (PGlite ${pgliteVersion()}), fresh temp DATA_DIR`,
      drop: async () => {},
    };
  }
  const scratch = await createScratchPostgresDatabase(serverUrl, 'bench');
  return {
    kind: 'postgres',
    url: scratch.url,
    location: `server at ${new URL(serverUrl).host}, fresh database ${scratch.name}`,
    async drop() {
      if (process.env.BENCH_KEEP_DATABASE) return;
      await scratch.drop();
    },
  };
}

/**
 * The database's version, asked of it directly: for a run whose workloads start no baseline (the baseline reports
 * the version otherwise). On the embedded database, the PGlite release.
 */
export async function databaseVersionOf(database: BenchDatabase): Promise<string> {
  if (database.kind === 'embedded') return `PGlite ${pgliteVersion()}`;
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    return String((await client.query<{ v: string }>('select version() as v')).rows[0]?.v ?? 'unknown');
  } finally {
    await client.end();
  }
}

function pgliteVersion(): string {
  try {
    // The package's exports do not include its package.json; read it from the install beside bench/.
    const file = new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'version unknown';
  }
}
