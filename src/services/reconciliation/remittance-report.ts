import type { Kysely } from 'kysely';
import { centsToAmount } from '../../domain/money.js';
import type { Principal } from '../../domain/principal.js';
import { isException, OUTCOMES, type Outcome } from '../../domain/reconciliation.js';
import { ApiError } from '../../errors.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { findBatch, listEntries, type BatchRow, type EntryRow } from '../../infrastructure/repositories/remittance-reports.js';

export interface EntryReport {
  /** Index of the entry in the posted `remittances` array. */
  index: number;
  bankReferenceId: string;
  amount: number;
  donationIds: string[];
  /** Null until the batch is reconciled. */
  outcome: string | null;
  detail: string | null;
}

export interface BatchReport {
  batchId: string;
  status: string;
  channel: string;
  fundraiserId: string;
  totalAmount: number;
  receivedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  counts: { entries: number; pending: number; matched: number; exceptions: number; byOutcome: Record<Outcome, number> };
  entries: EntryReport[];
}

/**
 * The out-of-band report of section 4.8: a batch's status and the outcome of each entry, for the partner that
 * posted it. Another partner's batch answers exactly like an unknown id.
 */
export async function getRemittanceReport(db: Kysely<DB>, principal: Principal, batchId: string): Promise<BatchReport> {
  const batch = await findBatch(db, batchId, { partnerId: principal.partnerId, environment: principal.environment });
  if (!batch) throw new ApiError('NOT_FOUND', `No remittance batch with id ${batchId}`);
  return toBatchReport(batch, await listEntries(db, batchId));
}

export function toBatchReport(batch: BatchRow, entries: EntryRow[]): BatchReport {
  const byOutcome = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  let pending = 0;
  for (const entry of entries) {
    if (entry.outcome === null) pending += 1;
    else byOutcome[entry.outcome as Outcome] += 1;
  }
  const exceptions = entries.filter((e) => isException(e.outcome)).length;
  return {
    batchId: batch.id,
    status: batch.status,
    channel: batch.channel,
    fundraiserId: batch.fundraiser_id,
    totalAmount: centsToAmount(Number(batch.total_cents)),
    receivedAt: iso(batch.created_at)!,
    startedAt: iso(batch.started_at),
    completedAt: iso(batch.completed_at),
    counts: { entries: entries.length, pending, matched: byOutcome.matched, exceptions, byOutcome },
    entries: entries.map(toEntryReport),
  };
}

export function toEntryReport(entry: EntryRow): EntryReport {
  return {
    index: entry.position,
    bankReferenceId: entry.bank_reference_id,
    amount: centsToAmount(Number(entry.amount_cents)),
    donationIds: entry.donation_ids,
    outcome: entry.outcome,
    detail: entry.outcome_detail,
  };
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
