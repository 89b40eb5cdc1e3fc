import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { DB } from '../../db/schema.js';
import type {
  CreateSetupIntentInput,
  DebitRequest,
  DebitSubmission,
  PaymentProvider,
  PaymentStatus,
  SetupIntent,
  SetupIntentStatus,
} from '../provider.js';
import { isSetupIntentStatus } from '../../../domain/setup-intent-status.js';
import { callStripe } from './stripe-errors.js';

/**
 * Stripe behind the payment-provider interface: a Customer per partner and fundraiser account, and a SetupIntent
 * for BECS Direct Debit only. Status changes arrive by webhook (src/services/stripe-webhooks.ts), so reads never
 * call Stripe. Every write carries an idempotency key derived from our mandate request's own key.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly statusUpdates = 'webhooks';

  constructor(
    private readonly stripe: Stripe,
    private readonly db: Kysely<DB>,
  ) {}

  async createSetupIntent(input: CreateSetupIntentInput): Promise<SetupIntent> {
    const customer = await this.customerFor(input);
    const intent = await callStripe(() =>
      this.stripe.setupIntents.create(
        {
          customer,
          // The pinned API version names the accepted types `allowed_payment_method_types`.
          allowed_payment_method_types: ['au_becs_debit'],
          usage: 'off_session',
          description: input.description,
          metadata: input.metadata,
        },
        { idempotencyKey: `seti:${input.idempotencyKey}` },
      ),
    );
    return toSetupIntent(intent, null);
  }

  async retrieveSetupIntent(id: string): Promise<SetupIntent | null> {
    const intent = await callStripe(() => this.stripe.setupIntents.retrieve(id));
    const mandate = intent.status === 'succeeded' ? await this.mandateOf(intent) : null;
    return toSetupIntent(intent, mandate);
  }

  /**
   * One try of a debit: a PaymentIntent confirmed off-session on the mandate's BECS payment method, under a key
   * derived from the debit and the try, so a retried submission reaches the same PaymentIntent. Its outcome arrives
   * days later by webhook (src/services/stripe-webhooks.ts).
   */
  async createDebit(request: DebitRequest): Promise<DebitSubmission> {
    const { customerId, paymentMethodId, providerMandateId } = request.mandate;
    if (!customerId || !paymentMethodId)
      throw new Error(`mandate ${request.mandate.id} has no Stripe customer or payment method to debit`);
    const intent = await callStripe(() =>
      this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'aud',
          customer: customerId,
          payment_method: paymentMethodId,
          ...(providerMandateId ? { mandate: providerMandateId } : {}),
          allowed_payment_method_types: ['au_becs_debit'],
          confirm: true,
          off_session: true,
          description: request.description,
          metadata: request.metadata,
        },
        { idempotencyKey: `pi:debit:${request.debitId}:${request.attempt}` },
      ),
    );
    return { paymentId: intent.id, status: paymentStatusOf(intent.status), failure: paymentFailureOf(intent) };
  }

  /** The customer and payment method a succeeded setup intent left, for the debits of its mandate. */
  async debitDetailsOf(setupIntentId: string): Promise<{ customerId: string | null; paymentMethodId: string | null }> {
    return debitDetailsOfIntent(await callStripe(() => this.stripe.setupIntents.retrieve(setupIntentId)));
  }

  /** The Mandate object a succeeded intent names (expanded already, or read from Stripe). */
  async mandateOf(intent: Stripe.SetupIntent): Promise<Stripe.Mandate | null> {
    if (!intent.mandate) return null;
    if (typeof intent.mandate !== 'string') return intent.mandate;
    const id = intent.mandate;
    return callStripe(() => this.stripe.mandates.retrieve(id));
  }

  /**
   * The stored customer of the partner and fundraiser, or a new one. Its idempotency key is the mandate request's,
   * so a retried request reaches the customer its first attempt created; two first requests racing may each
   * create one, and the first stored wins (the other stays unused at Stripe, harmless).
   */
  private async customerFor(input: CreateSetupIntentInput): Promise<string | undefined> {
    const owner = input.customer;
    if (!owner) return undefined;
    const stored = await this.storedCustomer(owner);
    if (stored) return stored;
    const customer = await callStripe(() =>
      this.stripe.customers.create(
        {
          email: input.email,
          name: input.name,
          metadata: { partnerId: owner.partnerId, accountId: owner.accountId },
        },
        { idempotencyKey: `cus:${input.idempotencyKey}` },
      ),
    );
    await this.db
      .insertInto('stripe_customers')
      .values({ partner_id: owner.partnerId, account_id: owner.accountId, customer_id: customer.id })
      .onConflict((oc) => oc.columns(['partner_id', 'account_id']).doNothing())
      .execute();
    return (await this.storedCustomer(owner)) ?? customer.id;
  }

  private async storedCustomer(owner: { partnerId: string; accountId: string }) {
    const row = await this.db
      .selectFrom('stripe_customers')
      .select('customer_id')
      .where('partner_id', '=', owner.partnerId)
      .where('account_id', '=', owner.accountId)
      .executeTakeFirst();
    return row?.customer_id;
  }
}

/** Stripe's SetupIntent (and its Mandate, once succeeded) as the provider interface shows it. */
export function toSetupIntent(intent: Stripe.SetupIntent, mandate: Stripe.Mandate | null): SetupIntent {
  if (!intent.client_secret) throw new Error(`Stripe returned SetupIntent ${intent.id} without a client secret`);
  const status: SetupIntentStatus = isSetupIntentStatus(intent.status) ? intent.status : 'processing';
  const becs = mandate?.payment_method_details.au_becs_debit;
  const acceptedAt = mandate?.customer_acceptance.accepted_at;
  return {
    id: intent.id,
    clientSecret: intent.client_secret,
    status,
    mandate:
      status === 'succeeded' && becs && acceptedAt
        ? { acceptedAt: new Date(acceptedAt * 1000), paymentMethod: 'au_becs_debit', url: becs.url }
        : null,
    providerMandate: mandate ? { id: mandate.id, status: mandate.status } : null,
    lastError: intent.last_setup_error ? (intent.last_setup_error.code ?? intent.last_setup_error.type) : null,
  };
}

/** What a debit of the mandate needs of a succeeded setup intent: its customer and payment method. */
export function debitDetailsOfIntent(intent: Stripe.SetupIntent) {
  return { customerId: idOf(intent.customer), paymentMethodId: idOf(intent.payment_method) };
}

/**
 * Why Stripe could not collect a PaymentIntent: the bank's reason (`decline_code`, when Stripe gives one beside a
 * general `code`), else the error's code, with Stripe's message. Null while nothing failed.
 */
export function paymentFailureOf(intent: Stripe.PaymentIntent): { code: string; message: string | null } | null {
  const error = intent.last_payment_error;
  if (!error) return null;
  return { code: error.decline_code ?? error.code ?? error.type, message: error.message ?? null };
}

/** A PaymentIntent's status as a debit sees it: anything short of a result is still processing. */
function paymentStatusOf(status: Stripe.PaymentIntent.Status): PaymentStatus {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'requires_payment_method' || status === 'canceled') return 'failed';
  return 'processing';
}

/** The id of an expandable field, whether Stripe sent the id or the object. */
export function idOf(field: string | { id: string } | null | undefined): string | null {
  if (!field) return null;
  return typeof field === 'string' ? field : field.id;
}
