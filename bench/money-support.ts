import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { send } from './load.js';
import { CHANNEL, donationRequest, FUNDRAISER_ID, type Credentials } from './workloads.js';

/** Runs of each workload of the money loop (receipts, debits, statement, resume); the median is reported. */
export const MONEY_RUNS = Math.max(1, Number(process.env.BENCH_MONEY_RUNS ?? 3));

/** BENCH_CPU_PROF: the money loop's services write their CPU profiles there too (when they stop). */
export const cpuProfileDir = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

/** One run of a one-shot workload: its time, its rate, and what it cost the process that did the work. */
export interface MoneyRun {
  ms: number;
  /** Items per second (receipts delivered, debits collected, lines imported); null for the resume. */
  perSecond: number | null;
  /** CPU (user + system) of the process doing the work, per item, in µs. */
  cpuUsPerItem: number | null;
  /** Peak RSS of that process (VmHWM), MB. */
  peakRssMb: number | null;
  /** Items not done, or done twice: must be 0. */
  errors: number;
  detail: string;
}

export interface MoneyResult {
  runs: MoneyRun[];
  error: string | null;
}

/** The median of the runs (by time) and the lowest and highest time. */
export function medianRun(result: MoneyResult): { median: MoneyRun; range: [number, number] } | null {
  if (result.runs.length === 0) return null;
  const sorted = [...result.runs].sort((a, b) => a.ms - b.ms);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)]!, range: [sorted[0]!.ms, sorted.at(-1)!.ms] };
}

export const headersOf =
  (credentials: Credentials) =>
  (extra: Record<string, string> = {}) => ({
    'x-correlation-id': randomUUID(),
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    ...extra,
  });

/** `count` donations through POST /donations at 50 connections; their reference ids. */
export async function createDonations(origin: string, basePath: string, credentials: Credentials, count: number) {
  const ids: string[] = [];
  await send(
    { origin, connections: 50, request: donationRequest(`${basePath}/donations`, credentials, (id) => ids.push(id)) },
    count,
  );
  if (ids.length < count) throw new Error(`only ${ids.length} of ${count} donations were recorded`);
  return ids;
}

/** POST /remittances: one entry per donation, each paying it whole; the batch id. */
export async function postBatch(
  baseUrl: string,
  credentials: Credentials,
  entries: { reference: string; amount: number; donationId: string }[],
): Promise<string> {
  const response = await fetch(`${baseUrl}/remittances`, {
    method: 'POST',
    headers: headersOf(credentials)({ 'content-type': 'application/json' }),
    body: JSON.stringify({
      source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
      remittances: entries.map((e) => ({
        bankReferenceId: e.reference,
        amount: e.amount,
        donationIds: [e.donationId],
      })),
    }),
  });
  const text = await response.text();
  const batchId = (JSON.parse(text) as { data?: { items?: { batchId?: string } } }).data?.items?.batchId;
  if (response.status !== 202 || !batchId)
    throw new Error(`POST /remittances answered ${response.status}: ${text.slice(0, 300)}`);
  return batchId;
}

export interface BatchState {
  status: string;
  startedAt: string | null;
  completedAt: string | null;
  exceptions: number;
}

/** GET /remittances/{batchId} without its entries' weight mattering: the status and times of the batch. */
export async function batchState(baseUrl: string, credentials: Credentials, batchId: string): Promise<BatchState> {
  const response = await fetch(`${baseUrl}/remittances/${batchId}?limit=1`, { headers: headersOf(credentials)() });
  if (response.status !== 200)
    return { status: `HTTP ${response.status}`, startedAt: null, completedAt: null, exceptions: 0 };
  type Report = {
    status: string;
    startedAt?: string | null;
    completedAt?: string | null;
    counts?: { exceptions?: number };
  };
  const items = ((await response.json()) as { data: { items: Report } }).data.items;
  return {
    status: items.status,
    startedAt: items.startedAt ?? null,
    completedAt: items.completedAt ?? null,
    exceptions: items.counts?.exceptions ?? 0,
  };
}

/** Polls `read` every `intervalMs` until `done`; throws after `timeoutMs`. */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs: number,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
