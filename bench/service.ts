import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { productionLaunch } from '../scripts/production-launch.js';
import { startChild, type Child } from './child.js';
import type { BenchDatabase } from './database.js';
import { PeakRssSampler, probeLaunch, recordPhase } from './process-memory.js';

/**
 * The bench partner's quota: on, but far above what a run sends (a few hundred thousand requests), so that the
 * quota plugin does all its work on every request and never answers 429. Postgres `integer` caps it.
 */
export const BENCH_QUOTA_LIMIT = 1_000_000_000;

export interface RunningService {
  /** Scheme, host and port. */
  origin: string;
  /** Origin plus BASE_PATH. */
  baseUrl: string;
  credentials: { clientId: string; clientSecret: string };
  pid: number;
  /** Current and peak RSS in MB so far. */
  memory(): { rssMb: number; peakMb: number };
  /** Notes the high-water mark once a workload is done, so the phase's peak names the workload that raised it. */
  mark(label: string): void;
  /** Stops the service gracefully; returns its peak RSS in MB (null without /proc). */
  stop(): Promise<number | null>;
  /** kill -9: the process ends at once, mid-work, as a crash would end it. */
  kill(): Promise<void>;
}

export interface ServiceOptions {
  repoRoot: string;
  workDir: string;
  database: BenchDatabase;
  /** Directory for a V8 CPU profile of the service (`node --cpu-prof`), written when it exits. */
  cpuProfileDir?: string;
  /** More node flags for the service, for diagnosis (e.g. --trace-gc); never needed for the figures. */
  nodeArgs?: string[];
  /** A restart on a database already seeded: the banner no longer shows secrets, so the caller passes them. */
  credentials?: { clientId: string; clientSecret: string };
  /** Settings over the bench's own (a production-like service for live receipts, a shorter scan interval). */
  env?: NodeJS.ProcessEnv;
  /** The name of its log file in the work dir (each start of a workload writes its own). */
  logName?: string;
  /** What this process stands for in the run's peak RSS by phase (default: its log's name). */
  phase?: string;
}

let started = 0;

/** The bench and the soak measure the service as deployed, the compiled build; its output goes to stderr. */
export function buildService(repoRoot: string) {
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: ['ignore', 2, 2] });
  if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status})`);
}

/**
 * Starts the real service (the compiled build of buildService, as `npm start` runs it) on a free port against a
 * fresh database, and reads the demo partner's credentials from the banner it prints at first start. Only
 * configuration is set: a quota for the demo partners, the environment, the port and the database. LOG_LEVEL is the
 * caller's (default info, the service's default).
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { database } = options;
  // A pre-production environment: demo data (the bench partner) and the payment simulator exist only there.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENV: 'sit',
    PORT: '0',
    HOST: '127.0.0.1',
    QUOTA_DEFAULT_LIMIT: String(BENCH_QUOTA_LIMIT),
    SEED_DEMO_DATA: 'true',
    // The report workload posts one batch of 100,000 entries (~9 MB): ten times the default limits.
    MAX_REMITTANCE_ENTRIES: '100000',
    BODY_LIMIT_BYTES: String(32 * 1024 * 1024),
    ...options.env,
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (database.kind === 'postgres') env.DATABASE_URL = database.url;
  else env.DATA_DIR = database.dataDir;

  const launch = productionLaunch(options.repoRoot);
  const logName = options.logName ?? (options.credentials ? 'service-restarted.log' : 'service.log');
  const phase = options.phase ?? logName.replace(/\.log$/, '');
  started += 1;
  const probeFile = join(options.workDir, `memory-${started}.json`);
  const probe = probeLaunch(probeFile);
  const child: Child = startChild(launch.script, {
    cwd: options.repoRoot,
    env: { ...env, ...launch.env, ...probe.env },
    // A restart writes a log of its own: its banner must not be confused with the first run's.
    logFile: join(options.workDir, logName),
    nodeArgs: [
      ...launch.nodeArgs,
      ...probe.nodeArgs,
      ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
      ...(options.nodeArgs ?? []),
    ],
  });
  const rss = new PeakRssSampler(child.pid);
  const marks: { label: string; peakMb: number }[] = [];
  try {
    // A first start runs initdb in a child process: on a machine shared with other runs it took over a minute.
    const [, baseUrl] = await child.waitFor(/Fundraiser partner API \(\w+\) on (\S+) /, 180_000);
    const [, clientId, clientSecret] = options.credentials
      ? [null, options.credentials.clientId, options.credentials.clientSecret]
      : await child.waitFor(/\[Storefront App\]\s+client_id=(\S+)\s+client_secret=(\S+)/, 5_000);
    return {
      origin: new URL(baseUrl!).origin,
      baseUrl: baseUrl!,
      credentials: { clientId: clientId, clientSecret: clientSecret },
      pid: child.pid,
      memory: () => rss.now(),
      mark: (label) => void marks.push({ label, peakMb: rss.now().peakMb }),
      async stop() {
        const peak = rss.stop();
        await child.stop();
        recordPhase(phase, peak, probeFile, marks);
        return peak;
      },
      async kill() {
        recordPhase(`${phase} (killed)`, rss.stop(), probeFile, marks);
        await child.kill();
      },
    };
  } catch (err) {
    rss.stop();
    await child.stop();
    throw err;
  }
}
