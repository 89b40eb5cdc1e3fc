import { ApiError } from '../../api-errors.js';
import type { RecurringDonationRequest } from '../../contract/recurring.js';
import { parseDecimalToCents } from '../../domain/money.js';
import { randomBase32 } from '../../domain/reference-ids.js';
import { requestHash } from '../../domain/request-hash.js';
import type { RecurringPlan } from '../../infrastructure/db/schema-recurring.js';
import { debitsOfPlans } from '../../infrastructure/repositories/debits.js';
import { findPlan, insertPlanOnce } from '../../infrastructure/repositories/recurring-plans.js';
import { requireEnrolment, type EnrolmentCache } from '../enrolment.js';
import { idempotent, idempotencyScope } from '../idempotency.js';
import type { RequestContext } from '../record-donation.js';
import { requireDebitableMandate } from './debitable-mandate.js';
import type { RecurringDeps } from './deps.js';
import { PartnerClocks } from './partner-clock.js';
import { toPlanRecord } from './records.js';
import { createDueDebits, firstDueDate } from './schedule.js';

const newPlanId = () => `RDN-${randomBase32(16)}`;

/**
 * POST /recurring-donations: a plan of debits on a succeeded mandate of the calling partner; the payer and the
 * fundraiser are the mandate's. A retry never creates a second plan: `partnerReference` is a natural key and an
 * Idempotency-Key replays the first answer. A plan starting today has its first debit scheduled at once.
 */
export async function createRecurringDonation(
  deps: RecurringDeps & { enrolments: EnrolmentCache },
  request: RecurringDonationRequest,
  context: RequestContext,
) {
  const { db } = deps;
  const { principal } = context;
  const clocks = await PartnerClocks.read(db, deps.now(), deps.timeZone);
  const today = clocks.todayOf(principal.partnerId);
  const problems = scheduleProblems(request, today);
  if (problems.length > 0) throw new ApiError('VALIDATION', problems.join('; '));
  const mandate = await requireDebitableMandate(db, deps.provider, principal, request.mandateId);
  const { account } = await requireEnrolment(db, deps.enrolments, mandate.fundraiser_id, mandate.channel);
  const hash = requestHash(request);
  const row = {
    id: newPlanId(),
    partner_id: principal.partnerId,
    environment: principal.environment,
    is_live: context.isLive,
    mandate_id: mandate.id,
    channel: mandate.channel,
    account_id: account.id,
    fundraiser_id: mandate.fundraiser_id,
    amount_cents: parseDecimalToCents(request.amount)!,
    frequency: request.frequency,
    start_date: request.startDate,
    end_date: request.endDate ?? null,
    max_debits: request.numberOfDebits ?? null,
    partner_reference: request.partnerReference ?? null,
    next_due_date: request.startDate,
    request_hash: hash,
    correlation_id: context.correlationId,
  };
  return idempotent(db, idempotencyScope(context, 'POST /recurring-donations', hash), async (trx) => {
    const { plan, created } = await insertPlanOnce(trx, row);
    if (!created && plan.request_hash !== hash)
      throw new ApiError(
        'CONFLICT',
        `partnerReference ${JSON.stringify(plan.partner_reference)} already names recurring donation ${plan.id} with other content`,
      );
    if (created) await startSchedule(trx, plan, today);
    const stored = (await findPlan(trx, plan.id))!;
    return {
      status: created ? 201 : 200,
      items: toPlanRecord(stored, await debitsOfPlans(trx, [plan.id])),
      replayed: !created,
    };
  });
}

/** The plan's first date (and its debit when due today); a plan whose end leaves no debit is refused earlier. */
async function startSchedule(trx: Parameters<typeof createDueDebits>[0], plan: RecurringPlan, today: string) {
  if (firstDueDate(plan) !== null) await createDueDebits(trx, plan.id, today);
}

/** What is wrong with the requested schedule, each naming its field. */
function scheduleProblems(request: RecurringDonationRequest, today: string): string[] {
  const problems: string[] = [];
  if (request.startDate < today)
    problems.push(`startDate: must be today (${today}, in the foundation's time zone) or later`);
  if (request.endDate !== undefined && request.endDate < request.startDate)
    problems.push('endDate: must not be before startDate');
  return problems;
}
