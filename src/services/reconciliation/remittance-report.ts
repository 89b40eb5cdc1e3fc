import type { Static } from '@sinclair/typebox';
import type { BatchReport as BatchReportSchema, BatchSummary } from '../../contract/remittance-report.js';
import type { Kysely } from 'kysely';
import { centsToAmount } from '../../domain/money.js';
import type { Principal } from '../../domain/principal.js';
import { asSeenByPartner } from '../../domain/reconciliation.js';
import { isException, OUTCOMES, type BatchStatus, type Outcome } from '../../domain/remittance-outcomes.js';
import { ApiError } from '../../api-errors.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  batchReversalTotals,
  entryPage,
  findReportBatch,
  type BatchReversalTotals,
  type EntryFilter,
  type Owner,
  type ReportBatchRow,
} from '../../infrastructure/repositories/remittance-report-pages.js';
import { ownDonationReferences, type EntryRow } from '../../infrastructure/repositories/remittance-reports.js';
import { readReportSnapshot } from '../../infrastructure/repositories/report-snapshot.js';
import type { FundsReceivedColumn } from '../../infrastructure/repositories/funds-received-column.js';
import type { PageCursors } from './page-cursor.js';

/** A batch's report without its entries (what the list of batches shows), and with a page of them. */
export type BatchSummaryReport = Static<typeof BatchSummary>;
export type BatchReport = Static<typeof BatchReportSchema>;
export type EntryReport = BatchReport['entries'][number];

export interface ReportQuery {
  limit: number;
  cursor?: string;
  /** An outcome, or `exceptions` (every outcome but matched). */
  outcome?: string;
}

export const DEFAULT_REPORT_PAGE = 1000;

/**
 * The out-of-band report of section 4.8: a batch's status and counts, and a page of its entries, for the partner
 * that posted it. Everything comes from one snapshot, so the counts, the status and the entries agree. Another
 * partner's batch answers exactly like an unknown id.
 */
export async function getRemittanceReport(
  db: Kysely<DB>,
  cursors: PageCursors,
  principal: Pick<Principal, 'partnerId' | 'environment'>,
  batchId: string,
  query: ReportQuery,
): Promise<BatchReport> {
  const scope = { batchId, outcome: query.outcome ?? null };
  const afterIndex = query.cursor ? indexFrom(cursors.decode(query.cursor, scope)) : -1;
  const filter = entryFilter(query.outcome, { partnerView: true });
  const owner = ownerOf(principal);
  const read = await readReportSnapshot(db, batchId, async (trx) => {
    const batch = await findReportBatch(trx, batchId, owner);
    if (!batch) return null;
    const rows = await entryPage(trx, batchId, { filter, afterIndex, limit: query.limit + 1 });
    const reversals = await batchReversalTotals(trx, batchId);
    const page = await asSeenBy(trx, owner, rows.slice(0, query.limit));
    return { batch, reversals, rows: page, more: rows.length > query.limit };
  });
  if (!read) throw notFound(batchId);
  const page = read.rows;
  const last = page.at(-1);
  return {
    ...summaryReport(read.batch, { partnerView: true }),
    ...reversalsReport(read.reversals),
    entries: page.map(toEntryReport),
    nextCursor: read.more && last ? cursors.encode(scope, { after: last.position }) : null,
  };
}

export const ownerOf = (principal: Pick<Principal, 'partnerId' | 'environment'>): Owner => ({
  partnerId: principal.partnerId,
  environment: principal.environment,
});

export const notFound = (batchId: string) => new ApiError('NOT_FOUND', `No remittance batch with id ${batchId}`);

/**
 * The stored outcomes a filter selects. The partner reads another partner's donation exactly as an unknown id
 * (docs/decisions/0032-another-partners-objects-look-unknown.md), so for it `unknown_donation` selects both and
 * `foreign_donation` selects nothing; operators filter the stored outcomes.
 */
export function entryFilter(outcome: string | undefined, view: { partnerView: boolean }): EntryFilter {
  if (outcome === undefined) return { kind: 'all' };
  if (outcome === 'exceptions') return { kind: 'exceptions' };
  if (!view.partnerView) return { kind: 'outcomes', outcomes: [outcome] };
  if (outcome === 'unknown_donation') return { kind: 'outcomes', outcomes: ['unknown_donation', 'foreign_donation'] };
  return { kind: 'outcomes', outcomes: outcome === 'foreign_donation' ? [] : [outcome] };
}

const isUnknownOrForeign = (outcome: string | null) => outcome === 'unknown_donation' || outcome === 'foreign_donation';

/** Entries as the partner may see them (asSeenByPartner), its own donations looked up in the same snapshot. */
export async function asSeenBy<R extends Pick<EntryRow, 'outcome' | 'outcome_detail'> & { donation_ids: string[] }>(
  db: Kysely<DB>,
  owner: Owner,
  rows: R[],
): Promise<R[]> {
  const named = [...new Set(rows.flatMap((e) => (isUnknownOrForeign(e.outcome) ? e.donation_ids : [])))];
  if (named.length === 0) return rows;
  const own = new Set(await ownDonationReferences(db, owner, named));
  return rows.map((row) => {
    const view = asSeenByPartner(
      { outcome: row.outcome, detail: row.outcome_detail, donationIds: row.donation_ids },
      own,
    );
    return { ...row, outcome: view.outcome, outcome_detail: view.detail };
  });
}

function indexFrom(position: Record<string, unknown>): number {
  const after = position.after;
  if (typeof after !== 'number' || !Number.isInteger(after) || after < -1)
    throw new ApiError('VALIDATION', 'query.cursor: is not a cursor this API issued');
  return after;
}

export function summaryReport(batch: ReportBatchRow, view: { partnerView: boolean }): BatchSummaryReport {
  const byOutcome = Object.fromEntries(OUTCOMES.map((o) => [o, Number(batch.counts[o] ?? 0)])) as Record<
    Outcome,
    number
  >;
  if (view.partnerView) {
    // Counted as the partner sees the entries: another partner's donation is an unknown id.
    byOutcome.unknown_donation += byOutcome.foreign_donation;
    byOutcome.foreign_donation = 0;
  }
  const pending = Number(batch.counts.pending ?? 0);
  const decided = OUTCOMES.reduce((sum, o) => sum + byOutcome[o], 0);
  return {
    batchId: batch.id,
    // The column holds only these (a check constraint); the schema is what the response promises.
    status: batch.status as BatchStatus,
    channel: batch.channel,
    fundraiserId: batch.fundraiser_id,
    totalAmount: centsToAmount(Number(batch.total_cents)),
    receivedAt: iso(batch.created_at)!,
    startedAt: iso(batch.started_at),
    completedAt: iso(batch.completed_at),
    counts: {
      entries: pending + decided,
      pending,
      matched: byOutcome.matched,
      exceptions: OUTCOMES.filter((o) => isException(o)).reduce((sum, o) => sum + byOutcome[o], 0),
      byOutcome,
    },
    progress: { entriesDone: decided, entriesTotal: pending + decided },
  };
}

/** The batch's reversal totals as the report states them (AUD, like its other amounts). */
export const reversalsReport = (totals: BatchReversalTotals) => ({
  reversedAmount: centsToAmount(totals.reversedCents),
  owedBack: centsToAmount(totals.owedBackCents),
});

export function toEntryReport(entry: EntryRow & Partial<FundsReceivedColumn>): EntryReport {
  return {
    index: entry.position,
    bankReferenceId: entry.bank_reference_id,
    amount: centsToAmount(Number(entry.amount_cents)),
    donationIds: entry.donation_ids,
    outcome: entry.outcome as Outcome | null,
    detail: entry.outcome_detail,
    fundsReceived: Boolean(entry.funds_received_at),
    fundsReceivedAt: iso(entry.funds_received_at ?? null),
  };
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
