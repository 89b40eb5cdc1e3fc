/**
 * The payment provider's setup-intent lifecycle, which a mandate's status follows
 * (docs/decisions/0014-mandates-return-their-id-and-follow-setup-intents.md).
 */
export const SETUP_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
] as const;

export type SetupIntentStatus = (typeof SETUP_INTENT_STATUSES)[number];

export const isSetupIntentStatus = (status: string): status is SetupIntentStatus =>
  (SETUP_INTENT_STATUSES as readonly string[]).includes(status);
