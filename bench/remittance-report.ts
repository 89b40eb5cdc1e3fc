import { randomUUID } from 'node:crypto';
import { cpuSeconds } from './process-cpu.js';
import { CHANNEL, FUNDRAISER_ID, type Credentials } from './workloads.js';

/** BENCH_REPORT_ENTRIES overrides it (a quick check of the workload itself). */
export const REPORT_ENTRIES = Number(process.env.BENCH_REPORT_ENTRIES ?? 100_000);
/** Requests timed for the first page (after one warm-up); the p50 is reported. */
const FIRST_PAGE_REQUESTS = 7;
const RECONCILE_TIMEOUT_MS = 180_000;

export interface ReportResult {
  /** From sending GET (Accept: text/csv) to its last byte. */
  csvMs: number;
  csvBytes: number;
  csvLines: number;
  /** Highest RSS of the service sampled (every 20 ms) while the CSV was being sent, and at its start. */
  csvRssMb: number;
  csvRssAtStartMb: number;
  /** CPU the service spent on the export (user + system): steadier than wall time on a shared machine. */
  csvCpuMs: number | null;
  /** p50 of FIRST_PAGE_REQUESTS reads of the first page (default limit, 1,000 entries). */
  firstPageP50Ms: number;
  firstPageBytes: number;
  /** Service CPU per first-page request (user + system). */
  firstPageCpuMs: number | null;
  /** Posting and reconciling the batch, for context. */
  postMs: number;
  reconcileMs: number;
  error: string | null;
}

/**
 * One batch of REPORT_ENTRIES entries (the service runs with MAX_REMITTANCE_ENTRIES raised for it), reconciled,
 * then read as partners would: the first page of the JSON report, and the whole report as CSV. Every entry names a
 * donation id that does not exist, so all are `unknown_donation` exceptions with a detail line: the export writes
 * every column of every row.
 */
const headersOf =
  (credentials: Credentials) =>
  (extra: Record<string, string> = {}) => ({
    'x-correlation-id': randomUUID(),
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    ...extra,
  });

export interface PreparedReport {
  batchId: string | null;
  postMs: number;
  reconcileMs: number;
  error: string | null;
}

/** Posts the batch and waits until it is reconciled. */
export async function prepareReport(baseUrl: string, credentials: Credentials): Promise<PreparedReport> {
  const headers = headersOf(credentials);
  const runId = randomUUID().slice(0, 8);
  const body = JSON.stringify({
    source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
    remittances: Array.from({ length: REPORT_ENTRIES }, (_, i) => ({
      bankReferenceId: `RPT-${runId}-${String(i).padStart(6, '0')}`,
      amount: 10 + (i % 100) / 100,
      donationIds: [`DON-RPT-${runId}-${i}`],
    })),
  });
  const started = performance.now();
  const posted = await fetch(`${baseUrl}/remittances`, {
    method: 'POST',
    headers: headers({ 'content-type': 'application/json' }),
    body,
  });
  const accepted = (await posted.json()) as { data?: { items?: { batchId?: string } } };
  const postMs = performance.now() - started;
  const batchId = accepted.data?.items?.batchId;
  if (posted.status !== 202 || !batchId)
    return { batchId: null, postMs, reconcileMs: 0, error: `POST answered ${posted.status}` };
  const status = await waitReconciled(`${baseUrl}/remittances/${batchId}`, headers);
  const reconcileMs = performance.now() - started;
  return { batchId, postMs, reconcileMs, error: status.startsWith('completed') ? null : `batch ${status}` };
}

/** Reads the prepared batch's report as a partner would: the first page a few times, then the whole CSV. */
export async function measureReport(
  baseUrl: string,
  credentials: Credentials,
  prepared: PreparedReport,
  service: { rssMb: () => number; pid: number },
): Promise<ReportResult> {
  const headers = headersOf(credentials);
  const { postMs, reconcileMs } = prepared;
  const failed = (error: string): ReportResult => ({
    ...{ csvMs: 0, csvBytes: 0, csvLines: 0, csvRssMb: 0, csvRssAtStartMb: 0, csvCpuMs: null },
    ...{ firstPageP50Ms: 0, firstPageBytes: 0, firstPageCpuMs: null },
    ...{ postMs, reconcileMs, error },
  });
  if (prepared.error || !prepared.batchId) return failed(prepared.error ?? 'no batch');
  const reportUrl = `${baseUrl}/remittances/${prepared.batchId}`;

  const times: number[] = [];
  let firstPageBytes = 0;
  let pageCpuBefore: number | null = null;
  for (let i = 0; i <= FIRST_PAGE_REQUESTS; i += 1) {
    const t0 = performance.now();
    const response = await fetch(reportUrl, { headers: headers() });
    const text = await response.text();
    if (response.status !== 200) return failed(`first page answered ${response.status}`);
    if (i > 0) times.push(performance.now() - t0);
    else pageCpuBefore = cpuSeconds(service.pid);
    firstPageBytes = text.length;
  }
  times.sort((a, b) => a - b);
  const pageCpuAfter = cpuSeconds(service.pid);
  const firstPageCpuMs =
    pageCpuBefore === null || pageCpuAfter === null ? null : ((pageCpuAfter - pageCpuBefore) * 1000) / times.length;

  const cpuBefore = cpuSeconds(service.pid);
  const csv = await exportCsv(reportUrl, headers({ accept: 'text/csv' }), service.rssMb);
  const cpuAfter = cpuSeconds(service.pid);
  return {
    ...csv,
    csvCpuMs: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) * 1000,
    firstPageP50Ms: times[Math.floor(times.length / 2)]!,
    firstPageBytes,
    firstPageCpuMs,
    postMs,
    reconcileMs,
    error: csv.csvLines === REPORT_ENTRIES + 1 ? null : `CSV had ${csv.csvLines} lines`,
  };
}

async function waitReconciled(url: string, headers: () => Record<string, string>): Promise<string> {
  const deadline = Date.now() + RECONCILE_TIMEOUT_MS;
  for (;;) {
    const response = await fetch(`${url}?limit=1`, { headers: headers() });
    const status = ((await response.json()) as { data?: { items?: { status?: string } } }).data?.items?.status;
    if (status?.startsWith('completed') || Date.now() > deadline) return status ?? `HTTP ${response.status}`;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Reads the CSV as it streams (never holding it whole), counting bytes and line ends, sampling the service's RSS. */
async function exportCsv(url: string, headers: Record<string, string>, rssMb: () => number) {
  const atStart = rssMb();
  let peak = atStart;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
  try {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    if (response.status !== 200 || !response.body) throw new Error(`CSV answered ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const csvMs = performance.now() - t0;
    return { csvMs, csvBytes: bytes, csvLines: lines, csvRssMb: Math.max(peak, rssMb()), csvRssAtStartMb: atStart };
  } finally {
    clearInterval(sampler);
  }
}
