import { PLAN_STATUSES } from '../../domain/recurring.js';
import { lockPlan } from '../../infrastructure/repositories/recurring-plans.js';
import { listPlanRows, type PlanRow } from '../../infrastructure/repositories/recurring-admin.js';
import { CANCEL_REASONS, cancelPlan } from '../recurring/cancel.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError, NotFoundError } from './operator-errors.js';
import { requirePartner } from './partners.js';
import { debitsOfPlan, type OperatorDebit } from './recurring-debits.js';

/**
 * Recurring donations for operators (docs/recurring.md): every partner's plans, one plan with its debits, and a
 * cancel by the foundation. The CLI's `recurring` group and the console's recurring pages call these.
 */
export type { PlanRow };

export interface PlanSearch {
  status?: string;
  /** A partner's name or id. */
  partner?: string;
  mandate?: string;
  limit: number;
}

export interface PlanDetail {
  plan: PlanRow;
  /** In date order. */
  debits: OperatorDebit[];
}

/** The longest reason kept in the audit log: a sentence or two, not a document. */
const MAX_REASON = 500;

/** Plans of every partner, newest first; filtered by status, partner and mandate. */
export async function listPlans(ctx: OperatorContext, search: PlanSearch): Promise<PlanRow[]> {
  if (search.status !== undefined && !(PLAN_STATUSES as readonly string[]).includes(search.status))
    throw new InvalidInputError(
      `${JSON.stringify(search.status)} is not a plan status: use one of ${PLAN_STATUSES.join(', ')}.`,
    );
  const partnerId = search.partner ? (await requirePartner(ctx, search.partner)).id : undefined;
  return listPlanRows(ctx.db, {
    status: search.status,
    partnerId,
    mandateId: search.mandate,
    limit: search.limit,
  });
}

export async function showPlan(ctx: OperatorContext, planId: string): Promise<PlanDetail> {
  const [plan] = await listPlanRows(ctx.db, { id: planId, limit: 1 });
  if (!plan) throw new NotFoundError(`No recurring donation with id ${JSON.stringify(planId)} (see "recurring list").`);
  return { plan, debits: await debitsOfPlan(ctx, planId) };
}

/**
 * Cancels an active or past-due plan for the foundation: no further debit (one already with the bank goes on to
 * its outcome), and the partner is told by `recurring_donation.canceled` with the reason "Canceled by the
 * foundation". The operator's own reason stays in the audit log, in the same transaction as the cancel.
 */
export async function cancelPlanByOperator(ctx: OperatorContext, planId: string, reason: string): Promise<PlanDetail> {
  const why = reason.trim();
  if (why === '') throw new InvalidInputError('Say why the recurring donation is canceled (--reason): it is audited.');
  if (why.length > MAX_REASON) throw new InvalidInputError(`The reason is longer than ${MAX_REASON} characters.`);
  await inTransaction(ctx, async (tx) => {
    // Locked first, so that a cancel by the partner or by failures at the same moment is seen here, not audited twice.
    const plan = await lockPlan(tx.db, planId);
    if (!plan)
      throw new NotFoundError(`No recurring donation with id ${JSON.stringify(planId)} (see "recurring list").`);
    if (plan.status !== 'active' && plan.status !== 'past_due')
      throw new ConflictError(`Recurring donation ${planId} is already ${plan.status}: there is nothing to cancel.`);
    await cancelPlan(tx.db, planId, CANCEL_REASONS.operator);
    await audit(tx, AuditActions.recurringCancel, planId, {
      partnerId: plan.partner_id,
      mandateId: plan.mandate_id,
      statusBefore: plan.status,
      reason: why,
    });
  });
  return showPlan(ctx, planId);
}
