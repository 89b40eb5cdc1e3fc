import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { ApiError } from '../api-errors.js';
import type { DB, Mandate } from '../infrastructure/db/schema.js';
import { isFinalStatus } from '../infrastructure/payments/provider.js';
import {
  debitDetailsOfIntent,
  toSetupIntent,
  type StripePaymentProvider,
} from '../infrastructure/payments/stripe/stripe-provider.js';
import {
  findByProviderMandate,
  isProviderEventRecorded,
  mandateExists,
  recordProviderEvent,
  setDebitDetails,
  updateMandateFromIntent,
  updateProviderMandateStatus,
} from '../infrastructure/repositories/mandates.js';
import { changeMandate } from './mandates.js';
import { debitEvent, isDebitEvent, type DebitEventDeps } from './stripe-debit-events.js';

export type WebhookOutcome = 'applied' | 'replayed' | 'stale' | 'ignored';

const SETUP_INTENT_EVENTS = new Set([
  'setup_intent.succeeded',
  'setup_intent.setup_failed',
  'setup_intent.canceled',
  'setup_intent.requires_action',
]);

/** What applying Stripe's events needs: the database, the Stripe provider, and what debits' outcomes need. */
export type StripeEventDeps = DebitEventDeps & { provider: StripePaymentProvider };

/**
 * Applies a verified Stripe event to our mandates and debits. Each event id is handled once (a replay changes
 * nothing); an event older than the last one applied to the same mandate or debit is recorded but changes nothing
 * (Stripe does not deliver in order); unknown types, and objects that are not ours, are acknowledged and ignored.
 */
export async function handleStripeEvent(deps: StripeEventDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  const { db, provider } = deps;
  if (await isProviderEventRecorded(db, event.id)) return 'replayed';
  if (SETUP_INTENT_EVENTS.has(event.type)) return setupIntentEvent(db, provider, event);
  if (event.type === 'mandate.updated') return mandateEvent(db, event);
  if (isDebitEvent(event.type)) return debitEvent(deps, event);
  return 'ignored';
}

async function setupIntentEvent(db: Kysely<DB>, provider: StripePaymentProvider, event: Stripe.Event) {
  const object = event.data.object as Stripe.SetupIntent;
  if (!(await mandateExists(db, object.id))) {
    // Ours but not stored yet (the creating request is still between Stripe and its commit): a non-2xx makes
    // Stripe deliver it again later. Intents of other integrations on the same account are none of ours.
    if (object.metadata?.mandateKey) throw new ApiError('NOT_FOUND', `Mandate ${object.id} is not recorded yet`);
    return 'ignored';
  }
  // The Mandate object is read before the transaction: never hold one across a network call.
  const mandate = object.status === 'succeeded' ? await provider.mandateOf(object) : null;
  const intent = toSetupIntent(object, mandate);
  return db.transaction().execute(async (trx) => {
    if (!(await recordProviderEvent(trx, eventRecord(event)))) return 'replayed';
    const changed = await changeMandate(trx, intent.id, async (before) =>
      before && isStale(before, before.intent_event_created, event.created, intent.status)
        ? null
        : updateMandateFromIntent(trx, intent, event.created),
    );
    // Kept for the mandate's debits, which then need no call to Stripe to find what to debit.
    const details = debitDetailsOfIntent(object);
    if (changed && intent.status === 'succeeded' && details.paymentMethodId)
      await setDebitDetails(trx, intent.id, details);
    return changed ? 'applied' : 'stale';
  });
}

async function mandateEvent(db: Kysely<DB>, event: Stripe.Event) {
  const object = event.data.object as Stripe.Mandate;
  const ours = await findByProviderMandate(db, object.id);
  // Not linked yet: the intent's own event will read the Mandate object as it is then.
  if (!ours) return 'ignored';
  return db.transaction().execute(async (trx) => {
    if (!(await recordProviderEvent(trx, eventRecord(event)))) return 'replayed';
    const changed = await changeMandate(trx, ours.id, async (before) =>
      before && isStale(before, before.mandate_event_created, event.created, null)
        ? null
        : updateProviderMandateStatus(trx, ours.id, object.status, event.created),
    );
    return changed ? 'applied' : 'stale';
  });
}

/**
 * The ordering guard. Stripe's `created` is in whole seconds: an event of an earlier second is stale; within the
 * same second, a final intent status (succeeded, canceled) is not taken back to an earlier step.
 */
function isStale(before: Mandate, lastApplied: string | null, created: number, nextStatus: string | null): boolean {
  if (lastApplied === null) return false;
  const last = Number(lastApplied);
  if (created < last) return true;
  return created === last && nextStatus !== null && isFinalStatus(before.status) && !isFinalStatus(nextStatus);
}

const eventRecord = (event: Stripe.Event) => ({ id: event.id, type: event.type, created: event.created });
