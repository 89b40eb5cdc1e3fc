import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Operators' reads of recurring plans and debits (docs/recurring.md), every partner's at once, with the partner and
 * the fundraiser named; and the counts of the recurring gauges of /metrics.
 */

/** A plan as operators see it. */
export interface PlanRow {
  id: string;
  partnerId: string;
  partnerName: string;
  environment: string;
  isLive: boolean;
  mandateId: string;
  channel: string;
  fundraiserId: string;
  accountName: string;
  amountCents: number;
  frequency: string;
  startDate: string;
  endDate: string | null;
  maxDebits: number | null;
  partnerReference: string | null;
  status: string;
  nextDueDate: string | null;
  debitsScheduled: number;
  failedInARow: number;
  canceledReason: string | null;
  canceledAt: Date | null;
  createdAt: Date;
}

export interface PlanFilter {
  id?: string;
  status?: string;
  partnerId?: string;
  mandateId?: string;
  limit: number;
}

/** Plans matching every given criterion, newest first. */
export async function listPlanRows(db: Kysely<DB>, filter: PlanFilter): Promise<PlanRow[]> {
  let query = db
    .selectFrom('recurring_plans as r')
    .innerJoin('partners as p', 'p.id', 'r.partner_id')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .select([
      'r.id',
      'r.partner_id as partnerId',
      'p.name as partnerName',
      'r.environment',
      'r.is_live as isLive',
      'r.mandate_id as mandateId',
      'r.channel',
      'r.fundraiser_id as fundraiserId',
      'a.name as accountName',
      'r.amount_cents as amountCents',
      'r.frequency',
      'r.start_date as startDate',
      'r.end_date as endDate',
      'r.max_debits as maxDebits',
      'r.partner_reference as partnerReference',
      'r.status',
      'r.next_due_date as nextDueDate',
      'r.debits_scheduled as debitsScheduled',
      'r.failed_in_a_row as failedInARow',
      'r.canceled_reason as canceledReason',
      'r.canceled_at as canceledAt',
      'r.created_at as createdAt',
    ]);
  if (filter.id !== undefined) query = query.where('r.id', '=', filter.id);
  if (filter.status !== undefined) query = query.where('r.status', '=', filter.status);
  if (filter.partnerId !== undefined) query = query.where('r.partner_id', '=', filter.partnerId);
  if (filter.mandateId !== undefined) query = query.where('r.mandate_id', '=', filter.mandateId);
  const rows = await query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(filter.limit).execute();
  return rows.map((row) => ({
    ...row,
    amountCents: Number(row.amountCents),
    canceledAt: row.canceledAt === null ? null : new Date(row.canceledAt),
    createdAt: new Date(row.createdAt),
  }));
}

/** What operators look at: debits to come, failed ones, disputed ones, and those with the bank. */
export const DEBIT_VIEWS = ['upcoming', 'failed', 'disputed', 'processing'] as const;
export type DebitView = (typeof DEBIT_VIEWS)[number];

/** A debit as operators see it, with its plan's status (null for a one-off debit) and its donation's reference. */
export interface DebitRow {
  id: string;
  partnerId: string;
  partnerName: string;
  environment: string;
  mandateId: string;
  planId: string | null;
  planStatus: string | null;
  sequence: number | null;
  transactionId: string | null;
  amountCents: number;
  dueDate: string;
  status: string;
  attempts: number;
  nextAttemptOn: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  donationReferenceId: string | null;
  disputedAt: Date | null;
  disputeReason: string | null;
  submittedAt: Date | null;
  settledAt: Date | null;
  updatedAt: Date;
}

export interface DebitFilter {
  id?: string;
  planId?: string;
  view?: DebitView;
  /** The foundation's date: `upcoming` is scheduled and due from that date on (required by that view). */
  today?: string;
  partnerId?: string;
  limit: number;
}

/**
 * Debits matching every given criterion. A view is ordered for what operators do with it: upcoming by due date,
 * failed and disputed newest first, processing oldest submission first (the longest with the bank); a plan's debits
 * in date order.
 */
export async function listDebitRows(db: Kysely<DB>, filter: DebitFilter): Promise<DebitRow[]> {
  let query = debitRows(db);
  if (filter.id !== undefined) query = query.where('d.id', '=', filter.id);
  if (filter.planId !== undefined) query = query.where('d.plan_id', '=', filter.planId);
  if (filter.partnerId !== undefined) query = query.where('d.partner_id', '=', filter.partnerId);
  switch (filter.view) {
    case 'upcoming':
      if (filter.today === undefined) throw new Error('the upcoming debits are counted from a date');
      query = query.where('d.status', '=', 'scheduled').where('d.due_date', '>=', filter.today).orderBy('d.due_date');
      break;
    case 'failed':
      query = query.where('d.status', '=', 'failed').orderBy('d.updated_at', 'desc');
      break;
    case 'disputed':
      query = query.where('d.disputed_at', 'is not', null).orderBy('d.disputed_at', 'desc');
      break;
    case 'processing':
      query = query.where('d.status', '=', 'processing').orderBy('d.submitted_at');
      break;
    case undefined:
      query = query.orderBy('d.due_date');
  }
  const rows = await query.orderBy('d.id').limit(filter.limit).execute();
  const time = (value: Date | string | null) => (value === null ? null : new Date(value));
  return rows.map((row) => ({
    ...row,
    amountCents: Number(row.amountCents),
    disputedAt: time(row.disputedAt),
    submittedAt: time(row.submittedAt),
    settledAt: time(row.settledAt),
    updatedAt: new Date(row.updatedAt),
  }));
}

function debitRows(db: Kysely<DB>) {
  return db
    .selectFrom('debits as d')
    .innerJoin('partners as p', 'p.id', 'd.partner_id')
    .leftJoin('recurring_plans as r', 'r.id', 'd.plan_id')
    .leftJoin('donations as don', 'don.id', 'd.donation_id')
    .select([
      'd.id',
      'd.partner_id as partnerId',
      'p.name as partnerName',
      'd.environment',
      'd.mandate_id as mandateId',
      'd.plan_id as planId',
      'r.status as planStatus',
      'd.sequence',
      'd.transaction_id as transactionId',
      'd.amount_cents as amountCents',
      'd.due_date as dueDate',
      'd.status',
      'd.attempts',
      'd.next_attempt_on as nextAttemptOn',
      'd.failure_code as failureCode',
      'd.failure_message as failureMessage',
      'don.reference_id as donationReferenceId',
      'd.disputed_at as disputedAt',
      'd.dispute_reason as disputeReason',
      'd.submitted_at as submittedAt',
      'd.settled_at as settledAt',
      'd.updated_at as updatedAt',
    ]);
}

/**
 * Debits by status, a disputed one counted as `disputed` rather than `succeeded` (its money was taken back), so the
 * counts add up to every debit. One GROUP BY over the table per scrape.
 */
export async function countDebitsByStatus(db: Kysely<DB>): Promise<{ status: string; count: number }[]> {
  const status = sql<string>`case when disputed_at is not null then 'disputed' else status end`;
  const rows = await db
    .selectFrom('debits')
    .select(({ fn }) => [status.as('status'), fn.countAll<string>().as('count')])
    .groupBy(status)
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

export async function countPlansByStatus(db: Kysely<DB>): Promise<{ status: string; count: number }[]> {
  const rows = await db
    .selectFrom('recurring_plans')
    .select(({ fn }) => ['status', fn.countAll<string>().as('count')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}
