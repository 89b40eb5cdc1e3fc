import type { Kysely } from 'kysely';
import { numberToCents } from '../domain/money.js';
import { ApiError } from '../api-errors.js';
import type { DB } from '../infrastructure/db/schema.js';
import { accountsOfDonationsNotEnrolled } from '../infrastructure/repositories/accounts.js';
import {
  donationIdsOfRows,
  ENTRIES_PER_STATEMENT,
  insertRemittanceBatch,
  remittanceRows,
  type NewRemittanceEntry,
} from '../infrastructure/repositories/remittances.js';
import { checkEnrolment } from './enrolment.js';
import { idempotent, idempotencyScope } from './idempotency.js';
import type { RequestContext } from './record-donation.js';

/** Hook for what happens to a stored batch (reconciliation); called inside the storing transaction. */
export type OnBatchStored = (trx: Kysely<DB>, batchId: string) => Promise<void>;

/** One valid entry of a remittance batch, as the wire schema describes it. */
export interface RemittanceEntryInput {
  bankReferenceId: string;
  amount: number;
  donationIds: string[];
}

/**
 * A batch's entries as they are read: a few thousand at a time become the text the repository inserts, so that
 * what is held of a 100,000-entry batch until it is stored is ~20 strings, not a tree of objects
 * (docs/decisions/0079-remittance-body-streamed.md).
 */
export class RemittanceEntries {
  count = 0;
  totalCents = 0;
  readonly rowChunks: string[] = [];
  private pending: NewRemittanceEntry[] = [];

  add(entry: RemittanceEntryInput): void {
    // The schema's amount-aud format guarantees a positive amount with at most two decimals.
    const amountCents = numberToCents(entry.amount)!;
    this.pending.push({ bankReferenceId: entry.bankReferenceId, amountCents, donationIds: entry.donationIds });
    this.count += 1;
    this.totalCents += amountCents;
    if (this.pending.length === ENTRIES_PER_STATEMENT) this.flush();
  }

  /** Call once the last entry was added. */
  finish(): this {
    if (this.pending.length > 0) this.flush();
    return this;
  }

  private flush(): void {
    this.rowChunks.push(remittanceRows(this.pending, this.count - this.pending.length));
    this.pending = [];
  }
}

/** A validated remittance batch (section 4.8): its source, its entries and the hash of its body. */
export interface RemittanceBatch {
  source: { channel: string; fundraiserId: string };
  entries: RemittanceEntries;
  requestHash: string;
}

/**
 * Accepts a remittance batch (section 4.8): 406 when the batch's fundraiser, or the fundraiser of any of the
 * partner's referenced donations, has no active enrolment with the channel; otherwise stored durably in one
 * transaction before the 202 (docs/decisions/0015-remittance-batches-stored-before-the-202.md). Unknown donation
 * ids are not an error here: reconciliation reports them.
 */
export async function acceptRemittances(
  db: Kysely<DB>,
  batch: RemittanceBatch,
  context: RequestContext,
  onStored?: OnBatchStored,
  /**
   * The refusal of new batches while reconciliation catches up (BacklogGate), or null: thrown for a batch this
   * request would store, never for the replay of one already accepted under its Idempotency-Key
   * (docs/decisions/0081-remittance-backlog-refused-at-the-door.md).
   */
  refusal: ApiError | null = null,
) {
  const { principal } = context;
  // Without a key nothing can be replayed: refused before any read.
  if (refusal && context.idempotencyKey === undefined) throw refusal;
  const { source, entries } = batch;
  const enrolment = await checkEnrolment(db, source.fundraiserId, source.channel);
  if (!enrolment.enrolled) throw new ApiError('REMITTANCE_NOT_ACCEPTED', enrolment.reason);
  const notEnrolled = new Set<string>();
  // A chunk's ids at a time: the whole batch's ids are never held at once.
  for (const rows of entries.rowChunks) {
    const ids = [...new Set(donationIdsOfRows(rows))];
    for (const member of await accountsOfDonationsNotEnrolled(db, principal, ids, source.channel))
      notEnrolled.add(member);
  }
  if (notEnrolled.size > 0) {
    throw new ApiError(
      'REMITTANCE_NOT_ACCEPTED',
      `Fundraisers of referenced donations not enrolled in product ${source.channel}: ${[...notEnrolled].sort().join(', ')}`,
    );
  }
  const hash = batch.requestHash;
  return idempotent(db, idempotencyScope(context, 'POST /remittances', hash), async (trx) => {
    // The key was claimed just now: this is new work, and the claim is rolled back with the refusal.
    if (refusal) throw refusal;
    const batchId = await insertRemittanceBatch(trx, {
      partnerId: principal.partnerId,
      environment: principal.environment,
      channel: source.channel,
      fundraiserId: source.fundraiserId,
      accountId: enrolment.account.id,
      requestHash: hash,
      correlationId: context.correlationId,
      entryCount: entries.count,
      totalCents: entries.totalCents,
      rowChunks: entries.rowChunks,
    });
    if (onStored) await onStored(trx, batchId);
    return { status: 202, items: { status: 'Request Accepted', batchId } };
  });
}
