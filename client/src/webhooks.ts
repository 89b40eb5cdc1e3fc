/**
 * Verifies a webhook delivery from the API. Deliveries are signed the Standard Webhooks way
 * (https://www.standardwebhooks.com): headers `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, several space-separated during a secret rotation), with the
 * endpoint's signing secret `whsec_<base64>`. Uses WebCrypto only, so it runs wherever the client does.
 */

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way. Default 300 s (replayed deliveries are refused). */
  toleranceSeconds?: number;
  /** For tests. */
  now?: () => Date;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/**
 * Resolves with the parsed event when the signature is valid and recent; rejects with a WebhookVerificationError
 * otherwise. `body` must be the raw request body, exactly as received (not re-serialised JSON).
 */
export async function verifyWebhook<T = unknown>(
  secret: string,
  headers: HeaderSource,
  body: string,
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-* headers');
  const seconds = Number(timestamp);
  const now = (options.now?.() ?? new Date()).getTime() / 1000;
  if (!Number.isInteger(seconds) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('Timestamp outside the tolerance: a stale or replayed delivery');
  const expected = await sign(secret, `${id}.${timestamp}.${body}`);
  const valid = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .some(([version, signature]) => version === 'v1' && signature !== undefined && equal(signature, expected));
  if (!valid) throw new WebhookVerificationError('No valid signature');
  return JSON.parse(body) as T;
}

async function sign(secret: string, content: string): Promise<string> {
  const keyBytes = Uint8Array.from(atob(secret.replace(/^whsec_/, '')), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(content)));
  return btoa(String.fromCharCode(...mac));
}

/** Compares without stopping at the first difference, so timing says nothing about the expected signature. */
function equal(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}
