/**
 * The payment provider behind mandates, seen through the shape of a Stripe SetupIntent for BECS direct debit.
 * The sandbox simulator implements it outside production; a Stripe implementation plugs in here.
 */
export type SetupIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'succeeded'
  | 'canceled';

export interface SetupIntent {
  id: string;
  clientSecret: string;
  status: SetupIntentStatus;
  /** Present once the mandate is accepted (status `succeeded`). */
  mandate: { acceptedAt: Date; paymentMethod: 'au_becs_debit'; url: string } | null;
  lastError: string | null;
}

export interface CreateSetupIntentInput {
  email: string;
  name: string;
  description: string;
  metadata: Record<string, string>;
  /** Passed through to the provider so that a retried creation is not duplicated there either. */
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly name: string;
  createSetupIntent(input: CreateSetupIntentInput): Promise<SetupIntent>;
  retrieveSetupIntent(id: string): Promise<SetupIntent | null>;
}

export const isFinalStatus = (status: string) => status === 'succeeded' || status === 'canceled';
