import { BATCH_STATUSES, OUTCOMES } from '../../domain/remittance-outcomes.js';
import { isUuid } from '../../domain/uuid.js';
import { countJobsByState } from '../../infrastructure/queue/enqueue.js';
import { RECONCILIATION_DEAD_LETTER_QUEUE, RECONCILIATION_QUEUE } from '../../infrastructure/queue/queues.js';
import { clearDeadLettered } from '../../infrastructure/repositories/reconciliation-failures.js';
import {
  findBatch,
  listBatches,
  listEntries,
  type BatchRow,
} from '../../infrastructure/repositories/remittance-reports.js';
import { listBatchEntries, type BatchEntryRow } from '../../infrastructure/repositories/batch-entries.js';
import { audit, AuditActions } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../operators/operator-errors.js';
import { requirePartner } from '../operators/partners.js';
import type { TimeRange } from '../operators/time-range.js';
import { batchReversalTotals, findReportBatch } from '../../infrastructure/repositories/remittance-report-pages.js';
import { readReportSnapshot } from '../../infrastructure/repositories/report-snapshot.js';
import { reversalsReport, summaryReport, toEntryReport, type BatchReport } from './remittance-report.js';
import { enqueueReconciliationJob } from './enqueue.js';
import { openRemittanceCsv } from './remittance-csv.js';

/** Operators' view of reconciliation: batches, their entries and exceptions, the queue, and manual retries. */

export interface BatchSummary {
  batchId: string;
  receivedAt: Date;
  partnerName: string;
  partnerId: string;
  environment: string;
  channel: string;
  fundraiserId: string;
  status: string;
  entries: number;
  totalCents: number;
  outcomeCounts: Record<string, number>;
  exceptions: number | null;
  attempts: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** Out of retries: only `remittances retry` moves it again. */
  deadLetteredAt: Date | null;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface BatchQuery {
  partner?: string;
  status?: string;
  range: TimeRange;
  deadLettered?: boolean;
  limit: number;
}

export async function listRemittanceBatches(ctx: OperatorContext, query: BatchQuery): Promise<BatchSummary[]> {
  if (query.status !== undefined && !(BATCH_STATUSES as readonly string[]).includes(query.status)) {
    throw new InvalidInputError(`--status must be one of ${BATCH_STATUSES.join(', ')}.`);
  }
  const partnerId = query.partner ? (await requirePartner(ctx, query.partner)).id : undefined;
  const rows = await listBatches(ctx.db, {
    partnerId,
    status: query.status,
    from: query.range.from,
    to: query.range.until,
    deadLettered: query.deadLettered,
    limit: query.limit,
  });
  return rows.map(toSummary);
}

export interface BatchDetail {
  batch: BatchSummary;
  report: BatchReport;
  /** The batch's reconciliation jobs by state, e.g. { completed: 1 } or { failed: 1 } once dead-lettered. */
  jobs: Record<string, number>;
}

export async function remittanceBatchDetail(
  ctx: OperatorContext,
  batchId: string,
  options: { exceptionsOnly?: boolean } = {},
): Promise<BatchDetail> {
  const batch = await requireBatch(ctx, batchId);
  // One snapshot, as the partner's report: the counts (the whole batch) agree with the entries listed.
  const { reportBatch, entries, reversals } = await readReportSnapshot(ctx.db, batchId, async (trx) => ({
    reportBatch: (await findReportBatch(trx, batchId))!,
    entries: await listEntries(trx, batchId, options),
    reversals: await batchReversalTotals(trx, batchId),
  }));
  return {
    batch: toSummary(batch),
    report: {
      ...summaryReport(reportBatch, { partnerView: false }),
      ...reversalsReport(reversals),
      entries: entries.map(toEntryReport),
      nextCursor: null,
    },
    jobs: await countJobsByState(ctx.db, RECONCILIATION_QUEUE, { batchId }),
  };
}

/** One batch as the partner's CSV file (the same code as GET /remittances/{batchId} with Accept: text/csv). */
export async function exportRemittanceBatchCsv(ctx: OperatorContext, batchId: string, outcome?: string) {
  await requireBatch(ctx, batchId);
  return openRemittanceCsv(ctx.db, batchId, { outcome });
}

export interface EntryQuery {
  batchId?: string;
  partner?: string;
  outcome?: string;
  exceptionsOnly?: boolean;
  range: TimeRange;
  limit: number;
}

/** Entries across batches (or of one batch), e.g. every exception of a partner last month. */
export async function listRemittanceEntries(ctx: OperatorContext, query: EntryQuery): Promise<BatchEntryRow[]> {
  if (query.outcome !== undefined && !(OUTCOMES as readonly string[]).includes(query.outcome)) {
    throw new InvalidInputError(`--outcome must be one of ${OUTCOMES.join(', ')}.`);
  }
  if (query.batchId) await requireBatch(ctx, query.batchId);
  const partnerId = query.partner ? (await requirePartner(ctx, query.partner)).id : undefined;
  return listBatchEntries(ctx.db, {
    batchId: query.batchId,
    partnerId,
    outcome: query.outcome,
    exceptionsOnly: query.exceptionsOnly,
    from: query.range.from,
    to: query.range.until,
    limit: query.limit,
  });
}

/**
 * Gives a batch that is not completed (typically dead-lettered) a fresh job with a fresh set of retries, in one
 * transaction with its audit entry. The running service picks it up; an embedded one at its next start.
 */
export async function retryRemittanceBatch(
  ctx: OperatorContext,
  batchId: string,
): Promise<{ batchId: string; jobId: string }> {
  const batch = await requireBatch(ctx, batchId);
  if (batch.status === 'completed' || batch.status === 'completed_with_exceptions') {
    throw new ConflictError(`Batch ${batchId} is already reconciled (${batch.status}); there is nothing to retry.`);
  }
  return inTransaction(ctx, async (tx) => {
    await clearDeadLettered(tx.db, batchId);
    const jobId = await enqueueReconciliationJob(tx.db, batchId);
    await audit(tx, AuditActions.remittanceRetry, batchId, {
      partner: batch.partner_name,
      status: batch.status,
      attempts: batch.attempts,
      wasDeadLettered: batch.dead_lettered_at !== null,
    });
    return { batchId, jobId };
  });
}

/** Jobs by state in the reconciliation queue and its dead-letter queue. */
export async function queueSummary(ctx: OperatorContext) {
  return {
    [RECONCILIATION_QUEUE]: await countJobsByState(ctx.db, RECONCILIATION_QUEUE),
    [RECONCILIATION_DEAD_LETTER_QUEUE]: await countJobsByState(ctx.db, RECONCILIATION_DEAD_LETTER_QUEUE),
  };
}

async function requireBatch(ctx: OperatorContext, batchId: string): Promise<BatchRow> {
  if (!isUuid(batchId))
    throw new InvalidInputError(
      `${JSON.stringify(batchId)} is not a batch id (a UUID, as returned by POST /remittances).`,
    );
  const batch = await findBatch(ctx.db, batchId);
  if (!batch) throw new NotFoundError(`No remittance batch with id ${batchId} (see "remittances list").`);
  return batch;
}

function toSummary(b: BatchRow): BatchSummary {
  return {
    batchId: b.id,
    receivedAt: b.created_at,
    partnerName: b.partner_name,
    partnerId: b.partner_id,
    environment: b.environment,
    channel: b.channel,
    fundraiserId: b.fundraiser_id,
    status: b.status,
    entries: b.entry_count,
    totalCents: Number(b.total_cents),
    outcomeCounts: b.outcome_counts,
    exceptions: b.exception_count,
    attempts: b.attempts,
    lastError: b.last_error,
    lastErrorAt: b.last_error_at,
    deadLetteredAt: b.dead_lettered_at,
    startedAt: b.started_at,
    completedAt: b.completed_at,
  };
}
