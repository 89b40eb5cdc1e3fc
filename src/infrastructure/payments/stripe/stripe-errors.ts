import { ApiError } from '../../../api-errors.js';
import { stripeSdk } from './sdk.js';

/** Seconds a partner is asked to wait when Stripe cannot be reached. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Stripe refused a call for a reason on our side (key revoked or wrong mode, missing permission, a parameter the
 * account does not accept). Answered 500 with nothing internal; the log line tells the operator what to check.
 */
class PaymentProviderConfigurationError extends Error {
  override readonly name = 'PaymentProviderConfigurationError';
}

/**
 * Runs a Stripe call, turning its failures into what our callers answer: unreachable, timing out, rate-limited
 * or failing on Stripe's side → 503 with Retry-After (safe to retry: every write carries an idempotency key);
 * refused for our credentials or request → PaymentProviderConfigurationError (500).
 */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw translateStripeError(err);
  }
}

function translateStripeError(err: unknown): unknown {
  const { errors } = stripeSdk();
  if (!(err instanceof errors.StripeError)) return err;
  const unavailable =
    err instanceof errors.StripeConnectionError ||
    err instanceof errors.StripeAPIError ||
    err instanceof errors.StripeRateLimitError ||
    (err.statusCode !== undefined && err.statusCode >= 500);
  if (unavailable)
    return new ApiError('UNAVAILABLE', 'The payment provider cannot be reached; retry later', {
      'retry-after': String(RETRY_AFTER_SECONDS),
    });
  const what =
    err instanceof errors.StripeAuthenticationError
      ? 'Stripe rejected STRIPE_SECRET_KEY (revoked, mistyped or of the other mode): set a valid key'
      : err instanceof errors.StripePermissionError
        ? 'STRIPE_SECRET_KEY lacks a permission this service needs (restricted key): grant setup intents, customers and mandates'
        : 'Stripe refused a request of this service: check the Stripe account settings (BECS Direct Debit enabled)';
  // Stripe's own message can quote parameters; its type, code and request id are what support asks for.
  return new PaymentProviderConfigurationError(
    `${what} [stripe ${err.type}${err.code ? ` ${err.code}` : ''} status ${err.statusCode ?? '?'} request ${err.requestId ?? '?'}]`,
  );
}
