import type { SetupIntentStatus } from '../../domain/setup-intent-status.js';

/**
 * The payment provider behind mandates, seen through the shape of a Stripe SetupIntent for BECS direct debit.
 * The sandbox simulator implements it outside production; a Stripe implementation plugs in here.
 */
export type { SetupIntentStatus } from '../../domain/setup-intent-status.js';

export interface SetupIntent {
  id: string;
  clientSecret: string;
  status: SetupIntentStatus;
  /** Present once the mandate is accepted (status `succeeded`). */
  mandate: { acceptedAt: Date; paymentMethod: 'au_becs_debit'; url: string } | null;
  lastError: string | null;
  /** Stripe only: the Mandate object behind a succeeded intent, whose status can later become `inactive`. */
  providerMandate?: { id: string; status: string } | null;
}

export interface CreateSetupIntentInput {
  email: string;
  name: string;
  description: string;
  metadata: Record<string, string>;
  /** Passed through to the provider so that a retried creation is not duplicated there either. */
  idempotencyKey: string;
  /** Whom the mandate is for: a provider keeping customers reuses one per partner and fundraiser account. */
  customer?: { partnerId: string; accountId: string };
}

/** A debit to collect on a succeeded mandate (docs/recurring.md). */
export interface DebitRequest {
  debitId: string;
  /** The try (from 1): each try is its own payment at the provider, under its own idempotency key. */
  attempt: number;
  amountCents: number;
  partnerId: string;
  mandate: {
    id: string;
    /** Stripe: the customer, payment method and Mandate object the setup intent left (null for the simulator). */
    customerId: string | null;
    paymentMethodId: string | null;
    providerMandateId: string | null;
  };
  description: string;
  metadata: Record<string, string>;
  /** The moment of submission: the partner's sandbox clock for the simulator, the real time otherwise. */
  at: Date;
}

/** Where a submitted debit stands: BECS debits are `processing` for days, then succeed or fail. */
export type PaymentStatus = 'processing' | 'succeeded' | 'failed';

export interface DebitSubmission {
  paymentId: string;
  status: PaymentStatus;
  /** The provider's reason when it refused the debit at once. */
  failure: { code: string; message: string | null } | null;
}

/** What a provider says happened to a payment (a webhook, or the simulator's settlement). */
export interface PaymentOutcome {
  paymentId: string;
  status: PaymentStatus | 'disputed';
  failure: { code: string; message: string | null } | null;
  /** When the provider says it happened (epoch seconds): events are applied in this order, not their arrival's. */
  occurredAt: number;
}

export interface PaymentProvider {
  readonly name: string;
  /**
   * How our copy of an intent's status is kept current: `on-read` (default) asks the provider when a mandate that
   * is not final is read; `webhooks` means the provider tells us, and reads answer from our stored state.
   */
  readonly statusUpdates?: 'on-read' | 'webhooks';
  createSetupIntent(input: CreateSetupIntentInput): Promise<SetupIntent>;
  retrieveSetupIntent(id: string): Promise<SetupIntent | null>;
  /**
   * Submits one try of a debit. The same debit and try always reach the same payment (an idempotency key derived
   * from them), so a retried submission never debits twice.
   */
  createDebit(request: DebitRequest): Promise<DebitSubmission>;
  /**
   * Stripe: the customer and payment method a succeeded setup intent left, for a mandate recorded before they were
   * kept. Providers that need neither (the simulator) have no such method.
   */
  debitDetailsOf?(setupIntentId: string): Promise<{ customerId: string | null; paymentMethodId: string | null }>;
}

export const isFinalStatus = (status: string) => status === 'succeeded' || status === 'canceled';
