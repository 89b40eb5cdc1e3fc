import { join } from 'node:path';
import { startChild } from './child.js';
import type { BenchDatabase } from './database.js';

export interface RunningBaseline {
  origin: string;
  pid: number;
  /** `select version()` of the database the baseline writes to (the service's database). */
  databaseVersion: string;
  stop(): Promise<void>;
}

/**
 * Starts bench/baseline-server.ts, on the service's database or (database null) with none, for the GET baselines.
 * On the embedded database it must run after the service has stopped: a PGlite data directory is opened by one
 * process at a time.
 */
export async function startBaseline(options: {
  repoRoot: string;
  workDir: string;
  database: BenchDatabase | null;
  poolMax: number;
  bodies: { ping: unknown; fundraisers: unknown };
  /** The headers the service's answers carry (protective, quota, content type): the baseline sends them too. */
  headers: [string, string][];
}): Promise<RunningBaseline> {
  const { database } = options;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BASELINE_POOL_MAX: String(options.poolMax),
    BASELINE_PING_BODY: JSON.stringify(options.bodies.ping),
    BASELINE_FUNDRAISERS_BODY: JSON.stringify(options.bodies.fundraisers),
    BASELINE_HEADERS: JSON.stringify(options.headers),
  };
  if (database?.kind === 'postgres') env.BASELINE_DATABASE_URL = database.url;
  if (database?.kind === 'embedded') env.BASELINE_DATA_DIR = database.dataDir;
  const logFile = join(options.workDir, database ? 'baseline-database.log' : 'baseline-bare.log');
  const child = startChild('bench/baseline-server.ts', { cwd: options.repoRoot, env, logFile });
  try {
    const [, origin, version] = await child.waitFor(/baseline listening on (\S+); database: (.*)\n/, 60_000);
    return { origin: origin!, pid: child.pid, databaseVersion: version!, stop: () => child.stop() };
  } catch (err) {
    await child.stop();
    throw err;
  }
}
