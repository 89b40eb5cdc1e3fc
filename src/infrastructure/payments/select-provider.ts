import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { paymentSettings } from '../../config/operations.js';
import type { DB } from '../db/schema.js';
import type { PaymentProvider } from './provider.js';
import type { PaymentSimulator } from './simulator.js';
import { createStripeClient } from './stripe/client.js';
import { StripePaymentProvider } from './stripe/stripe-provider.js';

/** Stripe as configured: the provider, the SDK client and the webhook endpoint's signing secret. */
export interface StripeIntegration {
  provider: StripePaymentProvider;
  client: Stripe;
  webhookSecret: string;
}

/**
 * The payment provider PAYMENT_PROVIDER names, refusing at start-up what cannot work (the simulator in production,
 * Stripe without its key or webhook secret: PaymentSettingsError names the variable).
 */
export function selectPaymentProvider(
  config: Parameters<typeof paymentSettings>[0],
  db: Kysely<DB>,
  simulator: PaymentSimulator | null,
): { payments: PaymentProvider; stripe: StripeIntegration | null } {
  const settings = paymentSettings(config);
  if (settings.provider === 'simulator') {
    if (!simulator) throw new Error('the simulator exists only outside production');
    return { payments: simulator, stripe: null };
  }
  const client = createStripeClient(settings.stripe);
  const provider = new StripePaymentProvider(client, db);
  return { payments: provider, stripe: { provider, client, webhookSecret: settings.stripe.webhookSecret } };
}
