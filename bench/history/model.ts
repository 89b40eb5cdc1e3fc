/**
 * The shape of a synthetic three-season history, decided in memory before a row is written (bench/history/load.ts
 * writes it): which partner and fundraiser each donation went to, when, for how much, and which remittance batch and
 * position settled it. Deterministic (a seeded generator), so that two runs load the same history.
 */

const DAY_MS = 86_400_000;
/** Three seasons of one year each, ending the day before the load. */
export const HISTORY_DAYS = 3 * 365;
/** Donations younger than this are still waiting for their partner's remittance, as they are on a live server. */
const RECENT_DAYS = 14;

export interface HistorySize {
  donations: number;
  fundraisers: number;
  partners: number;
  receipts: number;
  debits: number;
  bankLines: number;
  auditEntries: number;
}

/** The three seasons at scale 1 (BENCH_HISTORY_SCALE multiplies every count but the partners). */
export function historySize(scale: number): HistorySize {
  const of = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    donations: of(5_000_000),
    fundraisers: of(20_000),
    partners: 40,
    receipts: of(2_000_000),
    debits: of(300_000),
    bankLines: of(500_000),
    auditEntries: of(100_000),
  };
}

/** mulberry32: a small, fast, seeded generator; the history is the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface HistoryModel {
  size: HistorySize;
  startMs: number;
  /** Per donation, in time order. */
  partner: Uint8Array;
  fundraiser: Uint32Array;
  amountCents: Uint32Array;
  createdMs: Float64Array;
  /** The batch that settled it, or -1 (still open); and its position in the batch. */
  batch: Int32Array;
  position: Uint16Array;
  /** Per batch, in creation order: its partner, the time it was received, its donations (entryDonations slice). */
  batchPartner: Uint8Array;
  batchCreatedMs: Float64Array;
  batchFirst: Int32Array;
  batchCount: Uint16Array;
  /** Donation indexes in entry order: batch b's entries are entryDonations[batchFirst[b] … + batchCount[b]]. */
  entryDonations: Int32Array;
  batches: number;
}

/**
 * Partner 0 is the one the bench's requests come from: it carries a quarter of the donations, the other 39 share the
 * rest unevenly (a few large platforms, many small ones). Fundraisers are skewed too: big clubs receive most. Most
 * donations are settled in batches of 5–95 entries (a partner's daily or weekly remittance); the last fortnight's
 * are partly still open.
 */
export function buildModel(size: HistorySize, nowMs: number): HistoryModel {
  const random = seeded(54);
  const n = size.donations;
  const startMs = nowMs - (HISTORY_DAYS + 1) * DAY_MS;
  const spanMs = HISTORY_DAYS * DAY_MS;
  const partner = new Uint8Array(n);
  const fundraiser = new Uint32Array(n);
  const amountCents = new Uint32Array(n);
  const createdMs = new Float64Array(n);
  const batch = new Int32Array(n).fill(-1);
  const position = new Uint16Array(n);
  const amounts = [500, 1000, 2000, 2500, 5000, 10000];
  for (let i = 0; i < n; i += 1) {
    partner[i] = random() < 0.25 ? 0 : 1 + Math.floor((size.partners - 1) * random() ** 2);
    fundraiser[i] = Math.floor(size.fundraisers * random() ** 1.5);
    amountCents[i] =
      random() < 0.8 ? amounts[Math.floor(random() * amounts.length)]! : 200 + Math.floor(random() * 20000);
    createdMs[i] = startMs + (spanMs * (i + random())) / n;
  }
  // Each partner's settled donations, in time order, cut into batches.
  const maxBatches = Math.ceil(n / 5) + size.partners;
  const batchPartner = new Uint8Array(maxBatches);
  const batchCreatedMs = new Float64Array(maxBatches);
  const batchFirst = new Int32Array(maxBatches);
  const batchCount = new Uint16Array(maxBatches);
  const entryDonations = new Int32Array(n);
  let batches = 0;
  let entries = 0;
  const open: { members: number[]; target: number }[] = Array.from({ length: size.partners }, () => ({
    members: [],
    target: 5 + Math.floor(random() * 91),
  }));
  const close = (p: number) => {
    const pending = open[p]!;
    if (pending.members.length === 0) return;
    const b = batches;
    batches += 1;
    batchPartner[b] = p;
    // Received a day or three after its last donation, as a partner's remittance run sends it.
    batchCreatedMs[b] = Math.min(nowMs - DAY_MS, createdMs[pending.members.at(-1)!]! + DAY_MS * (1 + 2 * random()));
    batchFirst[b] = entries;
    batchCount[b] = pending.members.length;
    for (const [k, d] of pending.members.entries()) {
      batch[d] = b;
      position[d] = k;
      entryDonations[entries] = d;
      entries += 1;
    }
    pending.members = [];
    pending.target = 5 + Math.floor(random() * 91);
  };
  const recentFrom = nowMs - RECENT_DAYS * DAY_MS;
  for (let i = 0; i < n; i += 1) {
    const recent = createdMs[i]! >= recentFrom;
    // Three in a hundred are never remitted (abandoned, refunded at the partner); half the last fortnight's wait.
    if (random() < (recent ? 0.5 : 0.03)) continue;
    const p = partner[i]!;
    open[p]!.members.push(i);
    if (open[p]!.members.length >= open[p]!.target) close(p);
  }
  // What is left in each partner's last batch is still to be remitted: open, like the last fortnight's.
  return {
    size,
    startMs,
    partner,
    fundraiser,
    amountCents,
    createdMs,
    batch,
    position,
    batchPartner,
    batchCreatedMs,
    batchFirst,
    batchCount,
    entryDonations,
    batches,
  };
}

export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Australia's financial year (1 July – 30 June) of a date, in the receipts' form `2024-25`. */
export function financialYear(date: string): string {
  const year = Number(date.slice(0, 4));
  const first = Number(date.slice(5, 7)) >= 7 ? year : year - 1;
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`;
}
