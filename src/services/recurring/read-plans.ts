import { ApiError } from '../../api-errors.js';
import type { Principal } from '../../domain/principal.js';
import type { RecurringDonationRecord } from '../../contract/recurring.js';
import { debitsOfPlans, findOwnDebit, findShownDebit } from '../../infrastructure/repositories/debits.js';
import { findOwnMandate } from '../../infrastructure/repositories/mandates.js';
import { findOwnPlan, listOwnPlans } from '../../infrastructure/repositories/recurring-plans.js';
import type { PageCursors } from '../reconciliation/page-cursor.js';
import type { RecurringDeps } from './deps.js';
import { CANCEL_REASONS, cancelPlan } from './cancel.js';
import { toDebitRecord, toPlanRecord } from './records.js';

/** GET /recurring-donations/{id}: the plan, its next date and its debits. Another partner's plan is unknown here. */
export async function getRecurringDonation(deps: Pick<RecurringDeps, 'db'>, principal: Principal, id: string) {
  const plan = await findOwnPlan(deps.db, principal, id);
  if (!plan) throw new ApiError('NOT_FOUND', `No recurring donation with id ${id}`);
  return toPlanRecord(plan, await debitsOfPlans(deps.db, [plan.id]));
}

/** GET /debits/{id}: one debit (of a plan, or one-off). Another partner's debit is unknown here. */
export async function getDebit(deps: Pick<RecurringDeps, 'db'>, principal: Principal, id: string) {
  const owned = await findOwnDebit(deps.db, principal, id);
  if (!owned) throw new ApiError('NOT_FOUND', `No debit with id ${id}`);
  return toDebitRecord((await findShownDebit(deps.db, id))!);
}

/**
 * GET /recurring-donations?mandateId=…: the partner's plans (of one mandate, or all), oldest first, a page at a
 * time; `nextCursor` reads the next page. An unknown or another partner's mandate is a 404, as everywhere.
 */
export async function listRecurringDonations(
  deps: Pick<RecurringDeps, 'db'>,
  cursors: PageCursors,
  principal: Principal,
  query: { mandateId?: string; limit: number; cursor?: string },
): Promise<{ recurringDonations: RecurringDonationRecord[]; nextCursor: string | null }> {
  if (query.mandateId && !(await findOwnMandate(deps.db, principal, query.mandateId)))
    throw new ApiError('NOT_FOUND', `No mandate with id ${query.mandateId}`);
  const scope = { mandateId: query.mandateId ?? null };
  const position = query.cursor ? cursors.decode(query.cursor, scope) : null;
  const after = position ? String(position.after) : undefined;
  const plans = await listOwnPlans(deps.db, principal, {
    ...(query.mandateId ? { mandateId: query.mandateId } : {}),
    ...(after ? { after } : {}),
    limit: query.limit + 1,
  });
  const page = plans.slice(0, query.limit);
  const debits = await debitsOfPlans(
    deps.db,
    page.map((plan) => plan.id),
  );
  const last = page.at(-1);
  return {
    recurringDonations: page.map((plan) =>
      toPlanRecord(
        plan,
        debits.filter((debit) => debit.plan_id === plan.id),
      ),
    ),
    nextCursor: plans.length > query.limit && last ? cursors.encode(scope, { after: String(last.seq) }) : null,
  };
}

/** POST /recurring-donations/{id}/cancel: no further debit; one already with the bank goes on to its outcome. */
export async function cancelRecurringDonation(deps: Pick<RecurringDeps, 'db'>, principal: Principal, id: string) {
  const owned = await findOwnPlan(deps.db, principal, id);
  if (!owned) throw new ApiError('NOT_FOUND', `No recurring donation with id ${id}`);
  if (owned.status === 'completed')
    throw new ApiError('CONFLICT', `Recurring donation ${id} is completed: there is nothing left to cancel`);
  await deps.db.transaction().execute((trx) => cancelPlan(trx, id, CANCEL_REASONS.partner));
  return getRecurringDonation(deps, principal, id);
}
