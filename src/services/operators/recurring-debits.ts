import { dateIn } from '../../domain/calendar-date.js';
import type { Debit } from '../../infrastructure/db/schema-recurring.js';
import { lockDebit, markQueued, updateDebit } from '../../infrastructure/repositories/debits.js';
import { findMandate } from '../../infrastructure/repositories/mandates.js';
import {
  DEBIT_VIEWS,
  listDebitRows,
  type DebitRow,
  type DebitView,
} from '../../infrastructure/repositories/recurring-admin.js';
import { lockPlan } from '../../infrastructure/repositories/recurring-plans.js';
import { debitCollectionJob, enqueueJob } from '../jobs/definitions.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError, NotFoundError } from './operator-errors.js';
import { requirePartner } from './partners.js';

/**
 * Debits for operators (docs/recurring.md): what is coming, what failed, what was disputed, what is with the bank;
 * and another try of a failed debit now, rather than at its next scheduled try (or after its last one).
 */
export { DEBIT_VIEWS, type DebitView };

/** A debit with whether an operator may retry it now (see retryDebit). */
export type OperatorDebit = DebitRow & { retryable: boolean };

export interface DebitSearch {
  view: DebitView;
  /** A partner's name or id. */
  partner?: string;
  limit: number;
}

/** Plans that still collect: a debit of any other plan stays as its plan left it. */
const collecting = (planStatus: string | null | undefined) => planStatus === 'active' || planStatus === 'past_due';

const retryable = (debit: { status: string; planId: string | null; planStatus: string | null }) =>
  debit.status === 'failed' && (debit.planId === null || collecting(debit.planStatus));

const withRetryable = (rows: DebitRow[]): OperatorDebit[] => rows.map((row) => ({ ...row, retryable: retryable(row) }));

/** The debits of one view, of every partner or of one; `upcoming` counts from today in the foundation's time zone. */
export async function listDebits(
  ctx: OperatorContext,
  search: DebitSearch,
  timeZone: string,
): Promise<OperatorDebit[]> {
  if (!(DEBIT_VIEWS as readonly string[]).includes(search.view))
    throw new InvalidInputError(`${JSON.stringify(search.view)} is not a view: use one of ${DEBIT_VIEWS.join(', ')}.`);
  const partnerId = search.partner ? (await requirePartner(ctx, search.partner)).id : undefined;
  const today = dateIn(ctx.now(), timeZone);
  return withRetryable(await listDebitRows(ctx.db, { view: search.view, partnerId, today, limit: search.limit }));
}

/** Every debit of a plan, in date order (a plan has one per due date, so a page is never needed). */
export async function debitsOfPlan(ctx: OperatorContext, planId: string): Promise<OperatorDebit[]> {
  return withRetryable(await listDebitRows(ctx.db, { planId, limit: 100_000 }));
}

export async function showDebit(ctx: OperatorContext, debitId: string): Promise<OperatorDebit> {
  const [debit] = await listDebitRows(ctx.db, { id: debitId, limit: 1 });
  if (!debit) throw new NotFoundError(`No debit with id ${JSON.stringify(debitId)} (see "debits list").`);
  return { ...debit, retryable: retryable(debit) };
}

export interface DebitRetry {
  debitId: string;
  /** Today in the foundation's time zone: the try is due at once. */
  nextAttemptOn: string;
  /** The try the queued collection job submits. */
  attempt: number;
  jobId: string;
}

/**
 * Tries a failed debit again now: its next try is set to today (the foundation's date) and its collection job is
 * enqueued in the same transaction, with the audit entry. Only a failed debit of a plan that still collects (active
 * or past_due), or a one-off debit, on a mandate that can still be debited. A job already waiting for the same try
 * (or one that ran out of retries) is harmless: a try reaches one payment, and only one submission is recorded.
 */
export async function retryDebit(ctx: OperatorContext, debitId: string, timeZone: string): Promise<DebitRetry> {
  return inTransaction(ctx, async (tx) => {
    // The debit, then its plan: the order applying a provider's outcome takes them in.
    const debit = await lockDebit(tx.db, debitId);
    if (!debit) throw new NotFoundError(`No debit with id ${JSON.stringify(debitId)} (see "debits list").`);
    const planStatus = debit.plan_id ? ((await lockPlan(tx.db, debit.plan_id))?.status ?? null) : null;
    await requireRetryable(tx, debit, planStatus);
    const today = dateIn(tx.now(), timeZone);
    const attempt = debit.attempts + 1;
    await updateDebit(tx.db, debit.id, { next_attempt_on: today });
    const jobId = await enqueueJob(tx.db, debitCollectionJob, { debitId: debit.id });
    await markQueued(tx.db, debit.id, attempt);
    await audit(tx, AuditActions.debitRetry, debit.id, {
      partnerId: debit.partner_id,
      planId: debit.plan_id,
      attempt,
      failure: debit.failure_code,
      nextAttemptOnBefore: debit.next_attempt_on,
    });
    return { debitId: debit.id, nextAttemptOn: today, attempt, jobId };
  });
}

async function requireRetryable(ctx: OperatorContext, debit: Debit, planStatus: string | null): Promise<void> {
  if (debit.status !== 'failed')
    throw new ConflictError(`Debit ${debit.id} is ${debit.status}: only a failed debit can be retried.`);
  if (debit.plan_id && !collecting(planStatus))
    throw new ConflictError(
      `Debit ${debit.id} belongs to recurring donation ${debit.plan_id}, which is ${planStatus ?? 'gone'}: ` +
        'only a debit of an active or past-due plan can be retried.',
    );
  const mandate = await findMandate(ctx.db, debit.mandate_id);
  if (!mandate || mandate.mandate_status === 'inactive')
    throw new ConflictError(
      `Mandate ${debit.mandate_id} can no longer be debited: debit ${debit.id} cannot be retried.`,
    );
}
