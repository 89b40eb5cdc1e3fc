/**
 * The error catalogue: every code the API answers with, its HTTP status and its message. Codes and messages
 * of the spec (section 7) are used verbatim; the others follow their style
 * (docs/decisions/0018-codes-for-undocumented-statuses.md).
 */
export const ErrorCatalogue = {
  VALIDATION: { status: 400, code: 'FUNDRAISER:VALIDATION', message: 'Request Validation Unsuccessful' },
  FUNDRAISER_NOT_ENROLLED: {
    status: 400,
    code: 'FUNDRAISER:VALIDATION',
    message: 'Fundraiser Validation Unsuccessful',
  },
  UNAUTHORIZED: { status: 401, code: 'FUNDRAISER:UNAUTHORIZED', message: 'Unauthorized' },
  NOT_FOUND: { status: 404, code: 'FUNDRAISER:NOT_FOUND', message: 'Resource not found' },
  ACCOUNT_NOT_FOUND: { status: 404, code: 'ACCOUNT:NOT_FOUND', message: 'Account with ID not found.' },
  METHOD_NOT_ALLOWED: { status: 405, code: 'FUNDRAISER:METHOD_NOT_ALLOWED', message: 'Method not allowed' },
  REQUEST_TIMEOUT: { status: 408, code: 'FUNDRAISER:REQUEST_TIMEOUT', message: 'Request not received in time' },
  REMITTANCE_NOT_ACCEPTED: {
    status: 406,
    code: 'FUNDRAISER:REMITTANCE POST',
    message: 'Fundraiser remittance processing request not accepted',
  },
  CONFLICT: { status: 409, code: 'FUNDRAISER:CONFLICT', message: 'Request conflicts with an earlier request' },
  PAYLOAD_TOO_LARGE: { status: 413, code: 'FUNDRAISER:PAYLOAD_TOO_LARGE', message: 'Payload too large' },
  URI_TOO_LONG: { status: 414, code: 'FUNDRAISER:URI_TOO_LONG', message: 'Request URI too long' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: 'FUNDRAISER:UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported media type' },
  RATE_LIMIT: { status: 429, code: 'FUNDRAISER:RATE_LIMIT', message: 'Request quota exhausted' },
  AUTHENTICATION_THROTTLED: {
    status: 429,
    code: 'FUNDRAISER:RATE_LIMIT',
    message: 'Too many failed authentication attempts',
  },
  TOO_MANY_CONNECTIONS: { status: 429, code: 'FUNDRAISER:RATE_LIMIT', message: 'Too many connections' },
  HEADERS_TOO_LARGE: {
    status: 431,
    code: 'FUNDRAISER:HEADERS_TOO_LARGE',
    message: 'Request header fields too large',
  },
  UNKNOWN: { status: 500, code: 'FUNDRAISER:UNKNOWN', message: 'Unhandled Exception Occurred' },
  UNAVAILABLE: { status: 503, code: 'FUNDRAISER:UNAVAILABLE', message: 'Service temporarily unavailable' },
  REMITTANCE_BACKLOG: {
    status: 503,
    code: 'FUNDRAISER:REMITTANCE_BACKLOG',
    message: 'Remittance batches are not accepted while reconciliation catches up',
  },
} as const satisfies Record<string, { status: number; code: string; message: string }>;

export type ErrorKind = keyof typeof ErrorCatalogue;

/** An error the API renders as the error envelope. Throw it from anywhere below the routes. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(
    readonly kind: ErrorKind,
    override readonly cause?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(ErrorCatalogue[kind].message);
    this.status = ErrorCatalogue[kind].status;
    this.code = ErrorCatalogue[kind].code;
  }
}
