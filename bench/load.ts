import autocannon, { type Request, type Result } from 'autocannon';

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
}

/** A short unmeasured run first (JIT, connection pools, caches), then the measured one. */
export async function measure(spec: LoadSpec, timing: { warmupSeconds: number; seconds: number }): Promise<LoadResult> {
  if (timing.warmupSeconds > 0) await run(spec, { duration: timing.warmupSeconds });
  return summarise(await run(spec, { duration: timing.seconds }));
}

/** Exactly `amount` requests, as fast as the service takes them (used to create data). */
export async function send(spec: LoadSpec, amount: number): Promise<LoadResult> {
  return summarise(await run(spec, { amount }));
}

async function run(spec: LoadSpec, limit: { duration: number } | { amount: number }): Promise<Result> {
  return autocannon({ url: spec.origin, connections: spec.connections, timeout: 10, requests: [spec.request], ...limit });
}

function summarise(result: Result): LoadResult {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    statuses,
  };
}
