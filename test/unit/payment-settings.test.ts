import { describe, expect, it } from 'vitest';
import { paymentSettings } from '../../src/config/operations.js';
import { loadConfig } from '../../src/config/index.js';

const stripe = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_51Q7mZkLx9RvT2wHd',
  STRIPE_WEBHOOK_SECRET: 'whsec_Jq8vN3tPz6YcR1mK',
};

describe('PAYMENT_PROVIDER and the Stripe settings', () => {
  it('defaults to the simulator outside production and to Stripe in production', () => {
    expect(paymentSettings(loadConfig({})).provider).toBe('simulator');
    expect(() => paymentSettings(loadConfig({ APP_ENV: 'production' }))).toThrow(/STRIPE_SECRET_KEY/);
  });

  it('production refuses the simulator, naming the setting', () => {
    expect(() => paymentSettings(loadConfig({ APP_ENV: 'production', PAYMENT_PROVIDER: 'simulator' }))).toThrow(
      /production refuses PAYMENT_PROVIDER=simulator/,
    );
  });

  it('Stripe without its key or webhook secret is refused, naming what is missing', () => {
    expect(() => paymentSettings(loadConfig({ PAYMENT_PROVIDER: 'stripe' }))).toThrow(
      /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/,
    );
    expect(() => paymentSettings(loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: '' }))).toThrow(
      /needs STRIPE_WEBHOOK_SECRET/,
    );
  });

  it('maps a complete Stripe configuration, STRIPE_API_BASE included', () => {
    const settings = paymentSettings(
      loadConfig({ ...stripe, APP_ENV: 'production', STRIPE_API_BASE: 'http://127.0.0.1:12111' }),
    );
    expect(settings).toMatchObject({ provider: 'stripe', stripe: { apiBase: 'http://127.0.0.1:12111' } });
  });

  it('rejects malformed keys without echoing them', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_live_oops' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_live_oops' })).not.toThrow(/pk_live_oops/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).not.toThrow(/"short"/);
  });

  it('migrates at start-up unless told not to', () => {
    expect(loadConfig({}).MIGRATE_ON_START).toBe(true);
    expect(loadConfig({ MIGRATE_ON_START: 'false' }).MIGRATE_ON_START).toBe(false);
  });
});
