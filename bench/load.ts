import autocannon, { type RawResult, type Request, type Result } from 'autocannon';
import { cpuSeconds } from './process-cpu.js';

export interface LoadSpec {
  /** Origin only (scheme, host, port); request paths carry the rest. */
  origin: string;
  request: Request;
  connections: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Socket errors (timeouts included) and non-2xx responses: anything a partner would have to retry. */
  errors: number;
  statuses: Record<string, number>;
  /** CPU (user + system) of the server process per request, warm-up included; null when not measured. */
  cpuUsPerRequest: number | null;
}

/**
 * A short unmeasured run first (JIT, connection pools, caches), then the measured one. With the server's pid, its
 * CPU time per request is measured across both runs.
 */
export async function measure(
  spec: LoadSpec,
  timing: { warmupSeconds: number; seconds: number },
  serverPid?: number,
): Promise<LoadResult> {
  const cpuBefore = serverPid === undefined ? null : cpuSeconds(serverPid);
  const warmup = timing.warmupSeconds > 0 ? await run(spec, { duration: timing.warmupSeconds }) : null;
  const result = await run(spec, { duration: timing.seconds });
  const cpuAfter = serverPid === undefined ? null : cpuSeconds(serverPid);
  const requests = result.requests.total + (warmup?.requests.total ?? 0);
  const cpuUsPerRequest =
    cpuBefore !== null && cpuAfter !== null && requests > 0 ? ((cpuAfter - cpuBefore) * 1e6) / requests : null;
  return { ...summarise(result), cpuUsPerRequest };
}

/**
 * One run of a workload beside its baseline, for their ratio: after a warm-up of each, `slices` short measurements
 * of each in turn (service, baseline, service, …), merged per side (latency histograms included). The machine's
 * speed drifts over seconds (two virtual cores on a shared host): ratios of back-to-back 7-second blocks of the same
 * build spread from 0.47 to 0.71 within one run; in short alternating slices both sides meet the same moments. CPU
 * per request is counted over the measured slices only.
 */
export async function measurePair(
  sides: [LoadSpec & { pid: number }, LoadSpec & { pid: number }],
  timing: { warmupSeconds: number; seconds: number },
  slices: number,
): Promise<[LoadResult, LoadResult]> {
  for (const side of sides) if (timing.warmupSeconds > 0) await run(side, { duration: timing.warmupSeconds });
  const raw: [RawResult[], RawResult[]] = [[], []];
  const cpu = [0, 0];
  const sliceSeconds = timing.seconds / slices;
  for (let slice = 0; slice < slices; slice += 1)
    for (const [i, side] of sides.entries()) {
      const before = cpuSeconds(side.pid);
      raw[i]!.push(await runRaw(side, sliceSeconds));
      const after = cpuSeconds(side.pid);
      if (before !== null && after !== null) cpu[i]! += after - before;
    }
  const merged = sides.map((side, i) => {
    const result = autocannon.aggregateResult(raw[i]!, { url: side.origin, connections: side.connections });
    const requests = raw[i]!.reduce((n, r) => n + r.totalCompletedRequests, 0);
    const seconds = raw[i]!.reduce((n, r) => n + r.duration, 0);
    // The merged result has no per-second rate (autocannon samples it in the run): the slices' total over their time.
    return {
      ...summarise(result),
      rps: requests / seconds,
      cpuUsPerRequest: requests > 0 ? (cpu[i]! * 1e6) / requests : null,
    };
  });
  return [merged[0]!, merged[1]!];
}

function runRaw(spec: LoadSpec, seconds: number): PromiseLike<RawResult> {
  return autocannon({ ...optionsOf(spec), duration: seconds, skipAggregateResult: true });
}

/** Exactly `amount` requests, as fast as the service takes them (used to create data). */
export async function send(spec: LoadSpec, amount: number): Promise<LoadResult> {
  return { ...summarise(await run(spec, { amount })), cpuUsPerRequest: null };
}

async function run(spec: LoadSpec, limit: { duration: number } | { amount: number }): Promise<Result> {
  return autocannon({ ...optionsOf(spec), ...limit });
}

const optionsOf = (spec: LoadSpec) => ({
  url: spec.origin,
  connections: spec.connections,
  timeout: 10,
  requests: [spec.request],
});

function summarise(result: Result): Omit<LoadResult, 'cpuUsPerRequest'> {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    statuses,
  };
}

/** Several runs of one workload: the median run's figures, with the lowest and highest req/s beside them. */
export interface RepeatedResult extends LoadResult {
  runs: number;
  rpsRange: [number, number];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export function medianOf(runs: LoadResult[]): RepeatedResult {
  const rps = runs.map((r) => r.rps);
  const cpu = runs.map((r) => r.cpuUsPerRequest).filter((v): v is number => v !== null);
  return {
    rps: median(rps),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    statuses: runs.reduce<Record<string, number>>((all, r) => {
      for (const [code, count] of Object.entries(r.statuses)) all[code] = (all[code] ?? 0) + count;
      return all;
    }, {}),
    cpuUsPerRequest: cpu.length ? median(cpu) : null,
    runs: runs.length,
    rpsRange: [Math.min(...rps), Math.max(...rps)],
  };
}

/** Service/baseline ratios of runs made in pairs (each pair met the same machine): their median and spread. */
export function pairedRatio(
  service: LoadResult[],
  baseline: LoadResult[],
): { median: number; range: [number, number] } {
  const ratios = service.slice(0, baseline.length).map((r, i) => r.rps / baseline[i]!.rps);
  return { median: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)] };
}

/** The medians of every workload's runs, and the paired ratio where it has a baseline. */
export interface Measured {
  service: Record<string, RepeatedResult>;
  base: Record<string, RepeatedResult>;
  ratios: Record<string, { median: number; range: [number, number] }>;
}
