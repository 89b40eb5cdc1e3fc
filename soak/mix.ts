import { randomUUID } from 'node:crypto';
import { CHANNEL, DONATION_AMOUNT as AMOUNT, donationBody, FUNDRAISER_ID as FUNDRAISER } from '../bench/workloads.js';
import type { Call, Outcome } from './client.js';

/** The mix, in percent: what an operator preparing for a season peak would drive. */
export const MIX: [kind: string, percent: number][] = [
  ['donation', 40],
  ['enrolment', 25],
  ['account', 15],
  ['ping', 10],
  ['mandate read', 5],
  ['remittance batch', 4],
  ['report read', 1],
];
export const BATCH_ENTRIES = 20;

/**
 * The donations inserted before the run for batches to settle, `SOAK-<run>-0`, `SOAK-<run>-1`, …: a counter rather
 * than a list of ids, because a 30-minute run needs ~2 million of them, and an array that large made the soak client itself pause
 * (every shift copies it; every major GC walks it), which showed up as the service's latency.
 */
export class DonationPool {
  private inserted = 0;
  private taken = 0;

  /** Donations not yet named by a batch. */
  get size(): number {
    return this.inserted - this.taken;
  }

  /** Makes room for `count` more: the numbers [from, to] of the reference ids the caller inserts. */
  grow(count: number): { from: number; to: number } {
    const from = this.inserted;
    this.inserted += count;
    return { from, to: this.inserted - 1 };
  }

  take(): string | undefined {
    return this.taken < this.inserted ? spareReference(this.taken++) : undefined;
  }
}

/** The reference id of the pool's donation number n; the SQL that inserts them builds the same. */
const spareReference = (n: number) => `${SPARE_PREFIX}${n}`;
/** Per run: a database kept from an earlier soak (BENCH_HISTORY_URL) already holds that run's pool. */
export const SPARE_PREFIX = `SOAK-${randomUUID().slice(0, 8)}-`;

/**
 * Draws the next request of the mix. Batches settle donations no batch has named yet: first those recorded by the
 * soak itself, then a pool inserted before the run (`spare`), so that every entry should match.
 */
export class MixSource {
  private readonly unsettled: string[] = [];
  private readonly batchIds: string[] = [];
  private readonly cumulative: [string, number][] = [];

  constructor(
    private readonly basePath: string,
    private readonly mandateIds: string[],
    private readonly spare: DonationPool,
    /** Receives the bank reference of every entry of every batch drawn (a bank statement pays them later). */
    private readonly remitted?: string[],
  ) {
    let sum = 0;
    for (const [kind, percent] of MIX) this.cumulative.push([kind, (sum += percent)]);
  }

  next(): Call {
    const roll = Math.random() * 100;
    const kind = this.cumulative.find(([, upTo]) => roll < upTo)?.[0] ?? 'ping';
    return this.call(kind);
  }

  /** What the answers teach: donation references to settle later, batch ids to read reports of. */
  learn(outcome: Outcome): void {
    const items = (outcome.body as { data?: { items?: Record<string, unknown> } } | undefined)?.data?.items;
    if (outcome.kind === 'donation' && outcome.status === 200 && typeof items?.donationReferenceId === 'string')
      this.unsettled.push(items.donationReferenceId);
    if (outcome.kind === 'remittance batch' && outcome.status === 202 && typeof items?.batchId === 'string') {
      this.batchIds.push(items.batchId);
      if (this.batchIds.length > 1000) this.batchIds.shift();
    }
  }

  private call(kind: string): Call {
    const p = this.basePath;
    const channel = encodeURIComponent(CHANNEL);
    switch (kind) {
      case 'donation':
        return { kind, method: 'POST', path: `${p}/donations`, body: donationBody() };
      case 'enrolment':
        return { kind, method: 'GET', path: `${p}/fundraisers?channel=${channel}&id=${FUNDRAISER}` };
      case 'account':
        return { kind, method: 'GET', path: `${p}/accounts/${FUNDRAISER}?channel=${channel}` };
      case 'mandate read': {
        const id = this.mandateIds[Math.floor(Math.random() * this.mandateIds.length)]!;
        return { kind, method: 'GET', path: `${p}/mandates?id=${encodeURIComponent(id)}` };
      }
      case 'remittance batch':
        return { kind, method: 'POST', path: `${p}/remittances`, body: this.batchBody() };
      case 'report read': {
        const id = this.batchIds[Math.floor(Math.random() * this.batchIds.length)];
        if (!id) return this.call('ping');
        return { kind, method: 'GET', path: `${p}/remittances/${id}` };
      }
      default:
        return { kind: 'ping', method: 'GET', path: `${p}/ping` };
    }
  }

  private batchBody() {
    const remittances = Array.from({ length: BATCH_ENTRIES }, () => {
      const donation = this.unsettled.shift() ?? this.spare.take();
      if (!donation) throw new Error('the pool of donations to settle ran out; raise the spare pool');
      const bankReferenceId = `SOAK-${randomUUID()}`;
      this.remitted?.push(bankReferenceId);
      return { bankReferenceId, amount: Number(AMOUNT), donationIds: [donation] };
    });
    return { source: { channel: CHANNEL, fundraiserId: FUNDRAISER }, remittances };
  }
}

export function mandateBody() {
  return {
    source: { channel: CHANNEL, fundraiserId: FUNDRAISER },
    fundraiser: { firstName: 'Sam', lastName: 'Treasurer', email: 'treasurer@example.org' },
    paymentMethod: 'Direct Debit',
  };
}
