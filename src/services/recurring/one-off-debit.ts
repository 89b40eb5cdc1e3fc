import { ApiError } from '../../api-errors.js';
import type { DebitRequest } from '../../contract/recurring.js';
import { parseDecimalToCents } from '../../domain/money.js';
import { requestHash } from '../../domain/request-hash.js';
import { findShownDebit, insertOneOffDebitOnce } from '../../infrastructure/repositories/debits.js';
import { requireEnrolment, type EnrolmentCache } from '../enrolment.js';
import { debitCollectionJob, enqueueJob } from '../jobs/definitions.js';
import { idempotent, idempotencyScope } from '../idempotency.js';
import type { RequestContext } from '../record-donation.js';
import { requireDebitableMandate } from './debitable-mandate.js';
import type { RecurringDeps } from './deps.js';
import { PartnerClocks } from './partner-clock.js';
import { toDebitRecord } from './records.js';
import { newDebitId } from './schedule.js';

/**
 * POST /mandates/{mandateId}/debits: one debit of an amount on a date, for partners that schedule themselves (an
 * accumulated round-up). `transaction.id` is its natural key: a retry returns the debit the first request made. A
 * debit due today is submitted at once; a later one when its day comes.
 */
export async function requestOneOffDebit(
  deps: RecurringDeps & { enrolments: EnrolmentCache },
  mandateId: string,
  request: DebitRequest,
  context: RequestContext,
) {
  const { db } = deps;
  const { principal } = context;
  const clocks = await PartnerClocks.read(db, deps.now(), deps.timeZone);
  const today = clocks.todayOf(principal.partnerId);
  const dueDate = request.date ?? today;
  if (dueDate < today)
    throw new ApiError('VALIDATION', `body.date: must be today (${today}, in the foundation's time zone) or later`);
  const mandate = await requireDebitableMandate(db, deps.provider, principal, mandateId);
  await requireEnrolment(db, deps.enrolments, mandate.fundraiser_id, mandate.channel);
  const hash = requestHash({ mandateId, ...request });
  return idempotent(db, idempotencyScope(context, 'POST /mandates/:mandateId/debits', hash), async (trx) => {
    const { debit, created } = await insertOneOffDebitOnce(trx, {
      id: newDebitId(),
      partner_id: principal.partnerId,
      environment: principal.environment,
      is_live: context.isLive,
      mandate_id: mandate.id,
      plan_id: null,
      sequence: null,
      transaction_id: request.transaction.id,
      amount_cents: parseDecimalToCents(request.amount)!,
      due_date: dueDate,
      request_hash: hash,
      correlation_id: context.correlationId,
      queued_attempt: dueDate <= today ? 1 : 0,
    });
    if (!created && debit.request_hash !== hash)
      throw new ApiError(
        'CONFLICT',
        `transaction.id ${JSON.stringify(request.transaction.id)} was already used for debit ${debit.id} with other content`,
      );
    if (created && dueDate <= today) await enqueueJob(trx, debitCollectionJob, { debitId: debit.id });
    return {
      status: created ? 201 : 200,
      items: toDebitRecord((await findShownDebit(trx, debit.id))!),
      replayed: !created,
    };
  });
}
