/** The error envelope every error status of the API answers with. */
export interface ErrorEnvelope {
  apiVersion: string;
  correlationId: string;
  method: string;
  error: { code: string; timeStamp: string; message: string; cause?: string };
}

interface CallFacts {
  /** The X-Correlation-ID sent with every attempt of the call: quote it to the foundation. */
  correlationId: string;
  /** How many requests the call made (1 when nothing was retried). */
  attempts: number;
}

/**
 * The API answered with an error status. `code` and `message` come from the error envelope; `causes` lists what
 * exactly was wrong (the envelope's `cause`, one entry per failing field).
 */
export class PartnerApiError extends Error {
  override readonly name = 'PartnerApiError';
  readonly status: number;
  readonly code: string;
  readonly causes: string[];
  readonly correlationId: string;
  readonly attempts: number;
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** The parsed error envelope, or the raw text of a body that was not one (e.g. from a proxy), or null. */
  readonly body: ErrorEnvelope | string | null;

  constructor(status: number, body: ErrorEnvelope | string | null, facts: CallFacts & { retryAfterSeconds?: number }) {
    const envelope = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
    super(envelope?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = envelope?.code ?? `HTTP_${status}`;
    this.causes = envelope?.cause ? envelope.cause.split('; ') : [];
    this.correlationId = facts.correlationId;
    this.attempts = facts.attempts;
    this.retryAfterSeconds = facts.retryAfterSeconds;
    this.body = body;
  }
}

/** No HTTP answer at all: the connection failed or was reset. `cause` is the underlying error. */
export class PartnerNetworkError extends Error {
  override readonly name: string = 'PartnerNetworkError';
  readonly correlationId: string;
  readonly attempts: number;

  constructor(message: string, facts: CallFacts, cause?: unknown) {
    super(message, { cause });
    this.correlationId = facts.correlationId;
    this.attempts = facts.attempts;
  }
}

/** No answer within the time allowed for an attempt (`timeoutMs`) or for the whole call (`maxElapsedMs`). */
export class PartnerTimeoutError extends PartnerNetworkError {
  override readonly name = 'PartnerTimeoutError';
  constructor(
    readonly timeoutMs: number,
    facts: CallFacts,
  ) {
    super(`No answer within ${timeoutMs} ms`, facts);
  }
}
