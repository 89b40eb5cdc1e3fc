import { Type } from '@sinclair/typebox';

/** Settings of going live: the payment provider, migrations as a separate step, and the metrics endpoint. */
export const OperationsSettings = {
  PAYMENT_PROVIDER: Type.Optional(
    Type.Union([Type.Literal('simulator'), Type.Literal('stripe')], {
      description:
        'simulator (the sandbox; refused in production) or stripe. Default: stripe in production, else simulator.',
    }),
  ),
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({
      pattern: '^(sk|rk)_(test|live)_[A-Za-z0-9_]+$',
      description: 'Stripe secret (sk_…) or restricted (rk_…) API key. Required when PAYMENT_PROVIDER=stripe.',
    }),
  ),
  STRIPE_WEBHOOK_SECRET: Type.Optional(
    Type.String({
      pattern: '^whsec_[A-Za-z0-9+/=_-]+$',
      description: 'Signing secret (whsec_…) of the Stripe webhook endpoint. Required when PAYMENT_PROVIDER=stripe.',
    }),
  ),
  STRIPE_API_BASE: Type.Optional(
    Type.String({
      pattern: '^https?://[^/\\s:]+(:\\d+)?/?$',
      description: 'Where the Stripe API is reached (a stripe-mock or a test double, e.g. http://127.0.0.1:12111).',
    }),
  ),
  STRIPE_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 80000,
    default: 10000,
    description: 'A Stripe call slower than this is answered 503 with Retry-After.',
  }),
  MIGRATE_ON_START: Type.Boolean({
    default: true,
    description: 'Apply pending migrations at start-up. Set false where `fundraiser-admin migrate` runs as a step.',
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'Bearer token of GET /metrics (at least 16 characters). Unset: /metrics answers 404.',
    }),
  ),
};

export type PaymentProviderName = 'simulator' | 'stripe';

export class PaymentSettingsError extends Error {}

interface PaymentConfig {
  APP_ENV: string;
  PAYMENT_PROVIDER?: PaymentProviderName;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  STRIPE_TIMEOUT_MS: number;
}

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  apiBase?: string;
  timeoutMs: number;
};

/**
 * The provider to use, refusing what cannot work: production with the simulator, Stripe without its key or its
 * webhook secret. The message names the variable; it never echoes a value.
 */
export function paymentSettings(
  config: PaymentConfig,
): { provider: 'simulator' } | { provider: 'stripe'; stripe: StripeSettings } {
  const production = config.APP_ENV === 'production';
  const provider = config.PAYMENT_PROVIDER ?? (production ? 'stripe' : 'simulator');
  if (provider === 'simulator') {
    if (production)
      throw new PaymentSettingsError(
        'APP_ENV=production refuses PAYMENT_PROVIDER=simulator: set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.',
      );
    return { provider };
  }
  const missing = (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const).filter((name) => !config[name]);
  if (missing.length > 0)
    throw new PaymentSettingsError(
      `PAYMENT_PROVIDER=stripe needs ${missing.join(' and ')} (the API key and the webhook endpoint's signing secret from the Stripe dashboard).`,
    );
  return {
    provider,
    stripe: {
      secretKey: config.STRIPE_SECRET_KEY!,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
      apiBase: config.STRIPE_API_BASE,
      timeoutMs: config.STRIPE_TIMEOUT_MS,
    },
  };
}
