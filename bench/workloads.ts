import { randomUUID } from 'node:crypto';
import type { Request, RequestParams } from 'autocannon';

export const CHANNEL = 'Storefront App';
/** The demo fundraiser enrolled in the Storefront App channel. */
export const FUNDRAISER_ID = '10000001';
export const DONATION_AMOUNT = '20.50';

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** Every request carries a fresh X-Correlation-ID, as partners are told to send. */
function withCorrelationId(request: RequestParams): RequestParams {
  return { ...request, headers: { ...request.headers, 'x-correlation-id': randomUUID() } };
}

const authHeaders = (credentials: Credentials | null): Record<string, string> =>
  credentials ? { client_id: credentials.clientId, client_secret: credentials.clientSecret } : {};

export function getRequest(path: string, credentials: Credentials | null): Request {
  return { method: 'GET', path, headers: authHeaders(credentials), setupRequest: withCorrelationId };
}

export const pingPath = (basePath: string) => `${basePath}/ping`;
export const fundraisersPath = (basePath: string) =>
  `${basePath}/fundraisers?channel=${encodeURIComponent(CHANNEL)}&id=${FUNDRAISER_ID}`;
export const accountPath = (basePath: string) =>
  `${basePath}/accounts/${FUNDRAISER_ID}?channel=${encodeURIComponent(CHANNEL)}`;

/**
 * A valid donation (the shape test/helpers/test-app.ts sends) with a fresh transaction.id, and a different donor
 * email and mobile each time, as real traffic has: a cache of parsed phone numbers or addresses must not make the
 * bench look better than production would.
 */
export function donationBody() {
  const n = Math.floor(Math.random() * 1e6);
  const six = String(n).padStart(6, '0');
  return {
    source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
    donor: {
      email: `donor.${n}@example.com`,
      firstName: 'Jo',
      lastName: 'Citizen',
      mobile: `0412 ${six.slice(0, 3)} ${six.slice(3)}`,
      billingAddress: { street: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
    },
    transaction: { id: randomUUID(), date: '2026-11-21T10:00:00+10:00', amount: DONATION_AMOUNT },
    sourceMetadata: { orderNumber: 'ORD-1', orderTotal: '120.50' },
  };
}

/**
 * POST /donations with a fresh correlation id and transaction id per request. `onReference` receives the
 * donationReferenceId of every donation recorded (the remittance workload reuses them).
 */
export function donationRequest(
  path: string,
  credentials: Credentials | null,
  onReference?: (id: string) => void,
): Request {
  return {
    method: 'POST',
    path,
    headers: { ...authHeaders(credentials), 'content-type': 'application/json' },
    setupRequest: (request) => ({ ...withCorrelationId(request), body: JSON.stringify(donationBody()) }),
    ...(onReference
      ? { onResponse: (status: number, body: string) => collectReference(status, body, onReference) }
      : {}),
  };
}

function collectReference(status: number, body: string, onReference: (id: string) => void): void {
  if (status !== 200) return;
  const id = (JSON.parse(body) as { data?: { items?: { donationReferenceId?: string } } }).data?.items
    ?.donationReferenceId;
  if (id) onReference(id);
}

/** POST /mandates on the sandbox simulator: each request (fresh correlation id) creates a new setup intent. */
export function mandateRequest(path: string, credentials: Credentials): Request {
  const body = JSON.stringify({
    source: { channel: CHANNEL, fundraiserId: FUNDRAISER_ID },
    fundraiser: { firstName: 'Sam', lastName: 'Treasurer', email: 'treasurer@example.org' },
    paymentMethod: 'Direct Debit',
  });
  return {
    method: 'POST',
    path,
    headers: { ...authHeaders(credentials), 'content-type': 'application/json' },
    body,
    setupRequest: withCorrelationId,
  };
}
