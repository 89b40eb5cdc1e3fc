import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { hostileRequest, type HostileRequest } from './arbitraries.js';

/**
 * Property: whatever a client sends to any route (malformed and hostile bodies, headers, paths, queries, methods),
 * the answer is below 500, and every error is the envelope with a catalogue code, a correlation id echoed in the
 * header, and no internals. CI runs a bounded sample with a fixed seed; FUZZ_RUNS=12000 runs 12,000
 * hostile requests, for at most an hour (FUZZ_SEED picks another seed).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const TIME_LIMIT_MS = process.env.FUZZ_RUNS ? 3_600_000 : 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    // Quotas and lock-outs would soon answer every request 429, and the fuzzing would stop reaching deeper.
    env: {
      QUOTA_DEFAULT_LIMIT: '10000000',
      AUTH_FAILURE_LIMIT_PER_ADDRESS: '1000000',
    },
  });
}, 180_000);
afterAll(async () => t?.close(), 60_000);

interface Finding {
  request: HostileRequest;
  status: number;
  problem: string;
}

/** What is wrong with an answer, or null. */
export function envelopeProblem(method: string, status: number, headers: Record<string, unknown>, body: string) {
  if (status >= 500) return `status ${status}`;
  if (status < 400 || method === 'HEAD') return null;
  let parsed: {
    apiVersion?: unknown;
    correlationId?: unknown;
    method?: unknown;
    error?: { code?: unknown; message?: unknown; timeStamp?: unknown };
  };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return 'body is not JSON';
  }
  const e = parsed.error;
  if (typeof parsed.apiVersion !== 'string' || typeof parsed.method !== 'string') return 'no envelope';
  if (typeof parsed.correlationId !== 'string' || parsed.correlationId === '') return 'no correlation id';
  if (headers['x-correlation-id'] !== parsed.correlationId) return 'correlation id header differs';
  if (typeof e?.code !== 'string' || e.code === '' || typeof e.message !== 'string' || typeof e.timeStamp !== 'string')
    return 'no error code';
  if (/\bat .+\.(ts|js):\d+|node_modules|stack/i.test(body)) return 'internals in the body';
  return null;
}

describe(`hostile input over every route (${usingPostgres() ? 'PostgreSQL' : 'embedded'})`, () => {
  it(
    'never answers 5xx, and every error is the envelope',
    async () => {
      const findings: Finding[] = [];
      const statuses = new Map<number, number>();
      let sent = 0;
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(
          hostileRequest(t.config.BASE_PATH, { good: t.storefront, other: t.registration }),
          async (request) => {
            const response = await t.app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers: request.headers,
              ...(request.payload === undefined ? {} : { payload: request.payload }),
            });
            sent += 1;
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            const problem = envelopeProblem(request.method, response.statusCode, response.headers, response.body);
            if (problem) findings.push({ request, status: response.statusCode, problem });
            return true;
          },
        ),
        { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
      );
      const ping = await t.get('/ping');
      const summary = {
        database: usingPostgres() ? 'PostgreSQL' : 'embedded',
        seed: SEED,
        sent,
        seconds: Math.round((Date.now() - started) / 1000),
        atLeast500: findings.filter((f) => f.status >= 500).length,
        outsideEnvelope: findings.filter((f) => f.status < 500).length,
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
        stillUp: ping.statusCode === 200,
      };
      console.log(`fuzz summary ${JSON.stringify(summary)}`);
      expect(findings.slice(0, 5)).toEqual([]);
      expect(ping.statusCode).toBe(200);
      expect(sent).toBeGreaterThan(Math.min(RUNS, 50));
    },
    TIME_LIMIT_MS + 120_000,
  );
});
