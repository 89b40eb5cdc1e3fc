import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import { paymentSettings } from '../../config/operations.js';
import type { DB } from '../db/schema.js';
import type { PaymentProvider } from './provider.js';
import { PaymentSimulator } from './simulator.js';
import { isProduction } from '../../config/server.js';
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
function selectPaymentProvider(
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

/** Everything a payment needs: the simulator (outside production only) and the provider PAYMENT_PROVIDER selects. */
export interface Payments {
  simulator: PaymentSimulator | null;
  payments: PaymentProvider;
  stripe: StripeIntegration | null;
}

/** The payments of one application or worker context: the simulator outside production, and the selected provider. */
export function paymentsFor(
  config: Parameters<typeof paymentSettings>[0] & {
    APP_ENV: string;
    PUBLIC_BASE_URL?: string;
    HOST: string;
    PORT: number;
    BASE_PATH: string;
  },
  db: Kysely<DB>,
  now: () => Date,
  /** A provider to use instead of the one PAYMENT_PROVIDER selects (tests). */
  provider?: PaymentProvider,
): Payments {
  const simulator = isProduction(config)
    ? null
    : new PaymentSimulator(db, {
        mandateUrl: (id) =>
          `${config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`}${config.BASE_PATH}/sandbox/mandate-confirmations/${id}`,
        now,
      });
  if (provider) return { simulator, payments: provider, stripe: null };
  return { simulator, ...selectPaymentProvider(config, db, simulator) };
}
