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

export interface PaymentProvider {
  readonly name: string;
  /**
   * How our copy of an intent's status is kept current: `on-read` (default) asks the provider when a mandate that
   * is not final is read; `webhooks` means the provider tells us, and reads answer from our stored state.
   */
  readonly statusUpdates?: 'on-read' | 'webhooks';
  createSetupIntent(input: CreateSetupIntentInput): Promise<SetupIntent>;
  retrieveSetupIntent(id: string): Promise<SetupIntent | null>;
}

export const isFinalStatus = (status: string) => status === 'succeeded' || status === 'canceled';
