import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorCatalogue, type ErrorKind } from '../../api-errors.js';
import { API_VERSION } from '../../version.js';
import { ErrorEnvelope, SuccessEnvelope } from '../../contract/common.js';

/**
 * The documented responses of an operation: status, description, response headers, the envelope schema and an
 * example, in the `content` form that Fastify serialises with and @fastify/swagger copies into the document.
 *
 *   response: {
 *     200: envelopeResponse('/donations', DonationCreated, 'The donation is recorded.', { donationReferenceId: 'DON-…' }),
 *     ...errorResponses('/donations', ...BODY_ERRORS, 'FUNDRAISER_NOT_ENROLLED', 'CONFLICT'),
 *   }
 *
 * test/http/openapi-document.test.ts fails for any operation without them, so a new route cannot forget them.
 */

const EXAMPLE_CORRELATION_ID = '3f0c2a4e-8b1d-4c5e-9f6a-7b8c9d0e1f2a';
const EXAMPLE_TIMESTAMP = '2026-11-21T10:46:13.131Z';

interface HeaderSpec {
  type: 'string' | 'integer';
  format?: string;
  description: string;
}

/** Headers of the response, by name. Every response carries X-Correlation-ID. */
export const ResponseHeaders = {
  correlationId: {
    'X-Correlation-ID': {
      type: 'string',
      format: 'uuid',
      description: 'The request’s X-Correlation-ID, or a generated UUID when it was missing or malformed.',
    },
  },
  rateLimit: {
    'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed per quota window for this partner.' },
    'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current window.' },
    'X-RateLimit-Reset': { type: 'integer', description: 'Seconds until the current window ends.' },
  },
  retryAfter: {
    'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying.' },
  },
  replayed: {
    'Idempotent-Replayed': {
      type: 'string',
      description:
        '`true` when this is the stored response of an earlier request (same Idempotency-Key or transaction.id).',
    },
  },
  location: {
    Location: { type: 'string', description: 'Where to read the created resource.' },
  },
} satisfies Record<string, Record<string, HeaderSpec>>;

/** What every operation that passed authentication answers with besides its own headers. */
const SUCCESS_HEADERS = { ...ResponseHeaders.correlationId, ...ResponseHeaders.rateLimit };

/** A success response whose body is `schema` (operational endpoints are not enveloped). */
export function successResponse<T extends TSchema>(
  schema: T,
  description: string,
  example: unknown,
  headers: Record<string, HeaderSpec> = {},
) {
  return {
    description,
    headers: { ...SUCCESS_HEADERS, ...headers },
    content: { 'application/json': { schema, example } },
  };
}

/** A success response in the envelope of section 2.1, `data.items` being `items`. */
export function envelopeResponse<T extends TSchema>(
  method: string,
  items: T,
  description: string,
  example: unknown,
  headers: Record<string, HeaderSpec> = {},
) {
  return successResponse(
    SuccessEnvelope(method, items),
    description,
    { apiVersion: API_VERSION, correlationId: EXAMPLE_CORRELATION_ID, method, data: { items: example } },
    headers,
  );
}

/** A cause of each kind, as the service words it, for the examples. */
const EXAMPLE_CAUSES: Partial<Record<ErrorKind, string>> = {
  VALIDATION: 'header X-Correlation-ID: is required',
  FUNDRAISER_NOT_ENROLLED: 'Fundraiser 10000004 product Storefront App is not activated (status Pending Activation)',
  UNAUTHORIZED: 'Invalid or missing client credentials',
  NOT_FOUND: 'No mandate with id seti_12flWgZGxGxeJLOxhdrFmxD9',
  ACCOUNT_NOT_FOUND: 'No account with ID 99999999',
  REMITTANCE_NOT_ACCEPTED: 'Fundraiser 10000005 is not enrolled in product Storefront App',
  CONFLICT: 'Idempotency-Key "order-1001" was already used with a different request',
  PAYLOAD_TOO_LARGE: 'Request body is too large',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type must be application/json',
  RATE_LIMIT: 'Quota of 6000 requests per 60 s exhausted; retry in 12 seconds',
  REMITTANCE_BACKLOG: '2000 or more batches are waiting for reconciliation; retry in 10 s',
};

/** When each kind is answered, for the response descriptions. */
const WHEN: Record<ErrorKind, string> = {
  VALIDATION: 'X-Correlation-ID missing or not a UUID, or invalid input: the cause names every failing field.',
  FUNDRAISER_NOT_ENROLLED: 'The fundraiser has no active enrolment with the channel.',
  UNAUTHORIZED: 'Credentials missing or wrong (the body never says which), or a channel the partner was not issued.',
  NOT_FOUND: 'No such resource for this partner (another partner’s id answers the same).',
  ACCOUNT_NOT_FOUND: 'No account for the id.',
  METHOD_NOT_ALLOWED: 'The path exists but not with this method.',
  REMITTANCE_NOT_ACCEPTED: 'A referenced fundraiser has no active enrolment with the channel.',
  CONFLICT: 'The same Idempotency-Key (or transaction.id) was used earlier with a different body.',
  PAYLOAD_TOO_LARGE: 'The body is larger than the deployment accepts.',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not application/json.',
  RATE_LIMIT: 'The partner’s request quota for the window is used up: retry after Retry-After seconds.',
  UNKNOWN: 'A bug: no internals in the body; the log has them under the correlation id. Retry with backoff.',
  UNAVAILABLE: 'The database cannot be reached: retry after Retry-After seconds.',
  REQUEST_TIMEOUT: 'The request (headers or body) did not arrive within the deployment’s timeout.',
  URI_TOO_LONG: 'The request line is longer than the server accepts.',
  AUTHENTICATION_THROTTLED: 'Too many failed authentications for the client id or address: retry after Retry-After.',
  TOO_MANY_CONNECTIONS: 'The address holds more open connections than the deployment allows.',
  HEADERS_TOO_LARGE: 'The request headers are larger than the server accepts.',
  REMITTANCE_BACKLOG:
    'Extension: reconciliation is behind (more batches waiting, or the oldest waiting longer, than the deployment ' +
    'allows); the batch was not stored: send it again after Retry-After seconds.',
};

/** What any secured operation can answer: correlation id and input checks, credentials, quota, faults. */
const COMMON_ERRORS: readonly ErrorKind[] = ['VALIDATION', 'UNAUTHORIZED', 'RATE_LIMIT', 'UNKNOWN', 'UNAVAILABLE'];
/** What an operation with a JSON body can answer besides. */
export const BODY_ERRORS: readonly ErrorKind[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/**
 * The error responses of an operation: the common ones plus `extra`, grouped by status, each status with the
 * envelope schema, one example per error kind and its headers (Retry-After on 429 and 503).
 */
export function errorResponses(method: string, ...extra: ErrorKind[]) {
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of new Set([...COMMON_ERRORS, ...extra])) {
    const status = ErrorCatalogue[kind].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, kinds]) => [status, errorResponse(method, status, kinds)] as const),
  ) as Record<number, ReturnType<typeof errorResponse>>;
}

function errorResponse(method: string, status: number, kinds: ErrorKind[]) {
  const examples = Object.fromEntries(
    kinds.map((kind) => {
      const { code, message } = ErrorCatalogue[kind];
      const cause = EXAMPLE_CAUSES[kind];
      const error = { code, timeStamp: EXAMPLE_TIMESTAMP, message, ...(cause === undefined ? {} : { cause }) };
      const value = { apiVersion: API_VERSION, correlationId: EXAMPLE_CORRELATION_ID, method, error };
      return [kind, { summary: WHEN[kind], value }];
    }),
  );
  const retry = status === 429 || status === 503 ? ResponseHeaders.retryAfter : {};
  return {
    description: kinds.map((kind) => `${ErrorCatalogue[kind].code}: ${WHEN[kind]}`).join(' '),
    headers: { ...ResponseHeaders.correlationId, ...ResponseHeaders.rateLimit, ...retry },
    content: { 'application/json': { schema: Type.Ref(ErrorEnvelope), examples } },
  };
}
