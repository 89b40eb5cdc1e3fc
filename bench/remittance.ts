import { randomUUID } from 'node:crypto';
import { CHANNEL, DONATION_AMOUNT, FUNDRAISER_ID, type Credentials } from './workloads.js';

export const REMITTANCE_ENTRIES = 10_000;
export const REMITTANCE_DONATIONS = 20_000;

export interface RemittanceResult {
  /** From sending the POST to receiving the 202. */
  acceptedMs: number;
  /** From sending the POST to the batch status reading final; null when the status endpoint is not there yet. */
  reconciledMs: number | null;
  /** What GET /remittances/{batchId} said at the end (or why it could not be read). */
  finalStatus: string;
  /** Slowest read of the report while polling (it lists every entry). */
  slowestPollMs: number;
  /** From the batch being stored to a worker starting on it (the report's receivedAt → startedAt, database clock). */
  pickupMs: number | null;
  errors: number;
}

/**
 * The report carries every entry (10,000 here), so each read costs the service real work while it reconciles:
 * poll gently. The measured time is therefore late by at most one interval plus one read.
 */
export const POLL_INTERVAL_MS = 100;
const RECONCILE_TIMEOUT_MS = 60_000;

/**
 * One batch of REMITTANCE_ENTRIES bank transactions, each settling two of the given donations (all of the same
 * amount), posted once; then GET /remittances/{batchId} is polled until reconciliation has finished.
 */
export async function postRemittanceBatch(
  baseUrl: string,
  credentials: Credentials,
  donationIds: string[],
): Promise<RemittanceResult> {
  if (donationIds.length < REMITTANCE_DONATIONS)
    throw new Error(`need ${REMITTANCE_DONATIONS} donations, have ${donationIds.length}`);
  // Bank references are unique per batch ever posted, so a re-run on a kept database is not a replay.
  const runId = randomUUID().slice(0, 8);
  const entryAmount = (Number(DONATION_AMOUNT) * 100 * 2) / 100;
  const body = JSON.stringify({
    source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
    remittances: Array.from({ length: REMITTANCE_ENTRIES }, (_, i) => ({
      bankReferenceId: `BENCH-${runId}-${String(i).padStart(5, '0')}`,
      amount: entryAmount,
      donationIds: [donationIds[2 * i]!, donationIds[2 * i + 1]!],
    })),
  });
  const headers = () => ({
    'x-correlation-id': randomUUID(),
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
  });

  const started = performance.now();
  const response = await fetch(`${baseUrl}/remittances`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body,
  });
  const accepted = (await response.json()) as { data?: { items?: { batchId?: string } } };
  const acceptedMs = performance.now() - started;
  const batchId = accepted.data?.items?.batchId;
  if (response.status !== 202 || !batchId) {
    return {
      acceptedMs,
      reconciledMs: null,
      finalStatus: `POST answered ${response.status}: ${JSON.stringify(accepted).slice(0, 300)}`,
      errors: 1,
      slowestPollMs: 0,
      pickupMs: null,
    };
  }

  const deadline = Date.now() + RECONCILE_TIMEOUT_MS;
  let slowestPollMs = 0;
  for (;;) {
    const pollStarted = performance.now();
    const poll = await fetch(`${baseUrl}/remittances/${batchId}`, { headers: headers() });
    const text = await poll.text();
    slowestPollMs = Math.max(slowestPollMs, performance.now() - pollStarted);
    if (poll.status === 404 && text.includes('No route')) {
      return {
        acceptedMs,
        reconciledMs: null,
        finalStatus: 'GET /remittances/{batchId} not implemented',
        errors: 0,
        slowestPollMs,
        pickupMs: null,
      };
    }
    const report =
      poll.status === 200 ? readReport(text) : { status: `HTTP ${poll.status}`, exceptions: 1, pickupMs: null };
    if (isFinal(report.status)) {
      return {
        acceptedMs,
        reconciledMs: performance.now() - started,
        finalStatus: report.status,
        errors: report.exceptions,
        slowestPollMs,
        pickupMs: report.pickupMs,
      };
    }
    if (Date.now() > deadline)
      return {
        acceptedMs,
        reconciledMs: null,
        finalStatus: `still ${report.status} after ${RECONCILE_TIMEOUT_MS} ms`,
        errors: 1,
        slowestPollMs,
        pickupMs: null,
      };
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

function readReport(text: string): { status: string; exceptions: number; pickupMs: number | null } {
  type Report = { status?: string; counts?: { exceptions?: number }; receivedAt?: string; startedAt?: string | null };
  const items = (JSON.parse(text) as { data?: { items?: Report } }).data?.items;
  const pickupMs =
    items?.receivedAt && items.startedAt ? Date.parse(items.startedAt) - Date.parse(items.receivedAt) : null;
  return { status: items?.status ?? 'unknown', exceptions: items?.counts?.exceptions ?? 0, pickupMs };
}

/** Statuses of remittance_batches: accepted → processing → completed | completed_with_exceptions. */
function isFinal(status: string): boolean {
  return status.startsWith('completed') || status.startsWith('HTTP ');
}
