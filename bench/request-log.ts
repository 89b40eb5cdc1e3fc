import pg from 'pg';
import type { BenchDatabase } from './database.js';
import { measurePair, type LoadResult } from './load.js';
import { startService, type RunningService } from './service.js';
import { donationRequest } from './workloads.js';

const CONNECTIONS = 50;
/** Alternating slices per run: both services meet the same moments of a shared machine. */
const SLICES = 6;
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

export interface RequestLogRun {
  on: LoadResult;
  off: LoadResult;
  /** on's req/s over off's. */
  ratio: number;
}

export interface RequestLogResult {
  runs: RequestLogRun[];
  /** 1 − the median ratio: the share of throughput the log costs. */
  medianCost: number;
  /** Rows the log-on service wrote, and entries it dropped (partner_request_log_dropped_total). */
  rowsLogged: number;
  dropped: number;
  error: string | null;
}

/**
 * POST /donations on two services of the same build over the same PostgreSQL database, one with PARTNER_REQUEST_LOG
 * on and one with it off, measured in alternating slices (load.ts, measurePair) with the order swapped every run.
 * The embedded database cannot be opened by two processes: PostgreSQL only, as the target is.
 */
export async function measureRequestLog(
  context: { repoRoot: string; workDir: string; database: BenchDatabase },
  seconds: { warmupSeconds: number; seconds: number },
  progress: (message: string) => void,
): Promise<RequestLogResult> {
  const { database } = context;
  if (database.kind !== 'postgres')
    return { runs: [], medianCost: Number.NaN, rowsLogged: 0, dropped: 0, error: 'PostgreSQL only' };
  const common = { repoRoot: context.repoRoot, workDir: context.workDir, database };
  progress('request-log: starting the service with the log on, then one with it off');
  const on = await startService({
    ...common,
    env: { PARTNER_REQUEST_LOG: 'true', METRICS_TOKEN },
    logName: 'service-log-on.log',
  });
  let off: RunningService | null = null;
  try {
    off = await startService({
      ...common,
      credentials: on.credentials,
      env: { PARTNER_REQUEST_LOG: 'false', METRICS_TOKEN },
      logName: 'service-log-off.log',
    });
    const path = new URL(on.baseUrl).pathname.replace(/\/$/, '');
    const side = (service: RunningService) => ({
      origin: service.origin,
      connections: CONNECTIONS,
      request: donationRequest(`${path}/donations`, on.credentials),
      pid: service.pid,
    });
    const runs: RequestLogRun[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const swapped = run % 2 === 1;
      const [first, second] = await measurePair(
        swapped ? [side(off), side(on)] : [side(on), side(off)],
        seconds,
        SLICES,
      );
      const [logOn, logOff] = swapped ? [second, first] : [first, second];
      runs.push({ on: logOn, off: logOff, ratio: logOn.rps / logOff.rps });
      progress(
        `  run ${run + 1}: log on ${Math.round(logOn.rps)} req/s (p99 ${logOn.p99} ms), off ${Math.round(logOff.rps)} req/s (p99 ${logOff.p99} ms)`,
      );
    }
    const dropped = await droppedEntries(on);
    const ratios = runs.map((r) => r.ratio).sort((a, b) => a - b);
    const errors = runs.reduce((n, r) => n + r.on.errors + r.off.errors, 0);
    return {
      runs,
      medianCost: 1 - ratios[Math.floor(ratios.length / 2)]!,
      rowsLogged: await loggedRows(database.url),
      dropped,
      error: errors > 0 ? `${errors} failed requests` : null,
    };
  } finally {
    await off?.stop();
    await on.stop();
  }
}

async function droppedEntries(service: RunningService): Promise<number> {
  const response = await fetch(`${service.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('partner_request_log_dropped_total{'))
    .reduce((n, line) => n + Number(line.split(' ').at(-1)), 0);
}

async function loggedRows(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select count(*) as n from partner_requests');
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}
