import { randomUUID } from 'node:crypto';
import { send, type LoadSpec } from './load.js';
import { CHANNEL, DONATION_AMOUNT, donationRequest, FUNDRAISER_ID, type Credentials } from './workloads.js';

/** Many small batches posted at once, as partners post them, rather than one big one. */
export const THROUGHPUT_BATCHES = Number(process.env.BENCH_THROUGHPUT_BATCHES ?? 2_000);
export const THROUGHPUT_ENTRIES = 20;
/** Parallel POSTs while posting the batches (the service's pool takes them as fast as it can). */
const POST_CONCURRENCY = 50;
const POLL_INTERVAL_MS = 100;
const TIMEOUT_MS = 10 * 60_000;

export interface BatchThroughputResult {
  batches: number;
  /** From the first POST to the last 202. */
  postedMs: number;
  /** From the first POST until no batch is accepted or processing any more. */
  completedMs: number | null;
  batchesPerSecond: number | null;
  /** Batches not answered 202, or not completed without exceptions. */
  errors: number;
  detail: string;
}

/**
 * Creates THROUGHPUT_BATCHES × THROUGHPUT_ENTRIES donations, posts THROUGHPUT_BATCHES batches of THROUGHPUT_ENTRIES
 * entries (one donation each) as fast as the service accepts them, then lists the partner's batches still
 * `accepted` or `processing` until there are none. Reconciliation starts with the first 202, so the time covers
 * posting and draining together, as a partner would see it.
 */
export async function measureBatchThroughput(
  origin: string,
  baseUrl: string,
  credentials: Credentials,
): Promise<BatchThroughputResult> {
  const basePath = new URL(baseUrl).pathname.replace(/\/$/, '');
  const references: string[] = [];
  const spec: LoadSpec = {
    origin,
    connections: 50,
    request: donationRequest(`${basePath}/donations`, credentials, (id) => references.push(id)),
  };
  await send(spec, THROUGHPUT_BATCHES * THROUGHPUT_ENTRIES);
  if (references.length < THROUGHPUT_BATCHES * THROUGHPUT_ENTRIES)
    throw new Error(`only ${references.length} donations were recorded`);

  const headers = () => ({
    'x-correlation-id': randomUUID(),
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });
  const runId = randomUUID().slice(0, 8);
  const bodies = Array.from({ length: THROUGHPUT_BATCHES }, (_, b) =>
    JSON.stringify({
      source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
      remittances: Array.from({ length: THROUGHPUT_ENTRIES }, (_, e) => ({
        bankReferenceId: `TPUT-${runId}-${b}-${e}`,
        amount: Number(DONATION_AMOUNT),
        donationIds: [references[b * THROUGHPUT_ENTRIES + e]!],
      })),
    }),
  );

  // Batches with exceptions already there (a history's, an earlier run's on a kept database) are not this run's.
  const exceptionsBefore = await countStatus(baseUrl, headers, 'completed_with_exceptions');
  let refused = 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: POST_CONCURRENCY }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const response = await fetch(`${baseUrl}/remittances`, {
          method: 'POST',
          headers: { ...headers(), 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        if (response.status !== 202) refused += 1;
      }
    }),
  );
  const postedMs = performance.now() - started;

  const unfinished = async (status: string) => {
    const response = await fetch(`${baseUrl}/remittances?status=${status}&limit=1`, { headers: headers() });
    const json = (await response.json()) as { data?: { items?: { batches?: unknown[] } } };
    if (response.status !== 200) throw new Error(`GET /remittances answered ${response.status}`);
    return json.data?.items?.batches?.length ?? 0;
  };
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    if ((await unfinished('accepted')) === 0 && (await unfinished('processing')) === 0) break;
    if (Date.now() > deadline)
      return {
        batches: THROUGHPUT_BATCHES,
        postedMs,
        completedMs: null,
        batchesPerSecond: null,
        errors: 1,
        detail: 'timed out',
      };
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  const completedMs = performance.now() - started;
  const withExceptions = (await countStatus(baseUrl, headers, 'completed_with_exceptions')) - exceptionsBefore;
  return {
    batches: THROUGHPUT_BATCHES,
    postedMs,
    completedMs,
    batchesPerSecond: THROUGHPUT_BATCHES / (completedMs / 1000),
    errors: refused + withExceptions,
    detail: `${refused} refused, ${withExceptions} with exceptions`,
  };
}

async function countStatus(baseUrl: string, headers: () => Record<string, string>, status: string): Promise<number> {
  const response = await fetch(`${baseUrl}/remittances?status=${status}&limit=1000`, { headers: headers() });
  const json = (await response.json()) as { data?: { items?: { batches?: unknown[] } } };
  return json.data?.items?.batches?.length ?? 0;
}
