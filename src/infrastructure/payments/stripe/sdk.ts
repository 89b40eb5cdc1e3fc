import { createRequire } from 'node:module';
import type Stripe from 'stripe';

let loaded: typeof Stripe | undefined;

/**
 * The Stripe SDK, loaded when Stripe is first used rather than when the service starts: it is some 200 modules that
 * a service on the payment simulator never needs (docs/decisions/0049-a-faster-service-start.md). `require` keeps
 * the first use synchronous; the client and the error classes come from this one load, so `instanceof` holds.
 */
export function stripeSdk(): typeof Stripe {
  return (loaded ??= createRequire(import.meta.url)('stripe') as typeof Stripe);
}
