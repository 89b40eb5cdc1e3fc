import type Stripe from 'stripe';
import { ApiError } from '../api-errors.js';
import { idOf, paymentFailureOf } from '../infrastructure/payments/stripe/stripe-provider.js';
import { findDebitByPayment, lockDebit } from '../infrastructure/repositories/debits.js';
import { recordProviderEvent } from '../infrastructure/repositories/mandates.js';
import type { RecurringDeps } from './recurring/deps.js';
import { applyDebitOutcome, type DebitPaymentOutcome } from './recurring/outcomes.js';
import { PartnerClocks } from './recurring/partner-clock.js';

/** What applying a debit's events needs: the database, the retry policy, and the clock and zone of its dates. */
export type DebitEventDeps = Pick<RecurringDeps, 'db' | 'policy' | 'timeZone' | 'now'>;

type DebitEventOutcome = 'applied' | 'replayed' | 'stale' | 'ignored';

/** What each PaymentIntent event says of the payment of a debit's try (docs/recurring.md). */
const PAYMENT_STATUS = new Map<string, DebitPaymentOutcome['status']>([
  ['payment_intent.processing', 'processing'],
  ['payment_intent.succeeded', 'succeeded'],
  ['payment_intent.payment_failed', 'failed'],
]);

const DISPUTE_CREATED = 'charge.dispute.created';

export const isDebitEvent = (type: string) => PAYMENT_STATUS.has(type) || type === DISPUTE_CREATED;

/**
 * A verified Stripe event about a debit's payment, applied through the same rules as every provider's word
 * (services/recurring/outcomes.ts), at the moment Stripe says it happened (`event.created`).
 */
export async function debitEvent(deps: DebitEventDeps, event: Stripe.Event): Promise<DebitEventOutcome> {
  const outcome = event.type === DISPUTE_CREATED ? await disputeOutcome(deps, event) : paymentOutcome(event);
  return outcome ? applyEvent(deps, event, outcome) : 'ignored';
}

/**
 * A PaymentIntent event: the debit and the try are the intent's metadata, set when the try was submitted
 * (services/recurring/collect-debit.ts). An intent without them is another integration's on the same account.
 */
function paymentOutcome(event: Stripe.Event): DebitPaymentOutcome | null {
  const intent = event.data.object as Stripe.PaymentIntent;
  const debitId = intent.metadata?.debitId;
  const attempt = Number(intent.metadata?.attempt);
  if (!debitId || !Number.isSafeInteger(attempt) || attempt < 1) return null;
  return {
    debitId,
    attempt,
    paymentId: intent.id,
    status: PAYMENT_STATUS.get(event.type)!,
    failure: event.type === 'payment_intent.payment_failed' ? paymentFailureOf(intent) : null,
    occurredAt: event.created,
  };
}

/**
 * A dispute names the PaymentIntent, not our debit: the debit whose latest try it was (a debit succeeds on its
 * last try, and only a success can be disputed). A payment that is no debit of ours is ignored.
 */
async function disputeOutcome(deps: DebitEventDeps, event: Stripe.Event): Promise<DebitPaymentOutcome | null> {
  const dispute = event.data.object as Stripe.Dispute;
  const paymentId = idOf(dispute.payment_intent);
  const debit = paymentId ? await findDebitByPayment(deps.db, paymentId) : undefined;
  if (!paymentId || !debit) return null;
  return {
    debitId: debit.id,
    attempt: debit.attempts,
    paymentId,
    status: 'disputed',
    failure: { code: dispute.reason, message: null },
    occurredAt: event.created,
  };
}

/**
 * The event recorded and applied in one transaction, so it is handled once. A try not recorded yet (the job that
 * submitted it is between Stripe's answer and its commit) is refused with a non-2xx: Stripe delivers it again later.
 * A failed try's next date counts from the partner's date now, by the clock due debits are looked for with.
 */
function applyEvent(deps: DebitEventDeps, event: Stripe.Event, outcome: DebitPaymentOutcome) {
  return deps.db.transaction().execute(async (trx): Promise<DebitEventOutcome> => {
    const debit = await lockDebit(trx, outcome.debitId);
    if (!debit || debit.attempts < outcome.attempt)
      throw new ApiError('NOT_FOUND', `Try ${outcome.attempt} of debit ${outcome.debitId} is not recorded yet`);
    if (!(await recordProviderEvent(trx, { id: event.id, type: event.type, created: event.created })))
      return 'replayed';
    const clocks = await PartnerClocks.read(trx, deps.now(), deps.timeZone);
    const context = { policy: deps.policy, today: clocks.todayOf(debit.partner_id) };
    return (await applyDebitOutcome(trx, outcome, context)) === 'applied' ? 'applied' : 'stale';
  });
}
