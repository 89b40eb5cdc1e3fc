import type Stripe from 'stripe';
import type { StripeSettings } from '../../../config/operations.js';
import { stripeSdk } from './sdk.js';

/** Retries of a failed Stripe call inside one request, by the SDK, with the same idempotency key. */
const NETWORK_RETRIES = 1;

/**
 * The official SDK, at the API version it is pinned to. STRIPE_API_BASE (a stripe-mock or a test double) is mapped
 * onto the SDK's host, port and protocol; without it the SDK talks to Stripe itself.
 */
export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  const Sdk = stripeSdk();
  return new Sdk(settings.secretKey, {
    timeout: settings.timeoutMs,
    maxNetworkRetries: NETWORK_RETRIES,
    telemetry: false,
    appInfo: { name: 'fundraiser-partner-api' },
    ...(base ? { host: base.hostname, port: base.port || (protocol === 'http' ? 80 : 443), protocol } : {}),
  });
}
