/** The error envelope every error status of the API answers with. */
export interface ErrorEnvelope {
  apiVersion: string;
  correlationId: string;
  method: string;
  error: { code: string; timeStamp: string; message: string; cause?: string };
}

/**
 * What the call made before it failed: how many requests, and the X-Correlation-ID of each in order. A lone
 * `correlationId` is still taken as a single attempt's, so code that builds these errors itself (test doubles of
 * the client) keeps compiling.
 */
type CallFacts = {
  /** How many requests the call made (1 when nothing was retried). */
  attempts: number;
} & ({ correlationIds: readonly string[] } | { correlationId: string });

function correlationIdsOf(facts: CallFacts): string[] {
  const ids = 'correlationIds' in facts ? [...facts.correlationIds] : [facts.correlationId];
  if (ids.length === 0) throw new TypeError('an error of a call needs the correlation id of at least one attempt');
  return ids;
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
  /** The X-Correlation-ID of the last attempt, the one that got this answer (the last of `correlationIds`). */
  readonly correlationId: string;
  /** The X-Correlation-ID of every attempt, in order: quote them all to the foundation, e.g. `.join(', ')`. */
  readonly correlationIds: string[];
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
    this.correlationIds = correlationIdsOf(facts);
    this.correlationId = this.correlationIds.at(-1)!;
    this.attempts = facts.attempts;
    this.retryAfterSeconds = facts.retryAfterSeconds;
    this.body = body;
  }
}

/** No HTTP answer at all: the connection failed or was reset. `cause` is the underlying error. */
export class PartnerNetworkError extends Error {
  override readonly name: string = 'PartnerNetworkError';
  /** The X-Correlation-ID of the last attempt (the last of `correlationIds`). */
  readonly correlationId: string;
  /** The X-Correlation-ID of every attempt, in order: quote them all to the foundation, e.g. `.join(', ')`. */
  readonly correlationIds: string[];
  readonly attempts: number;

  constructor(message: string, facts: CallFacts, cause?: unknown) {
    super(message, { cause });
    this.correlationIds = correlationIdsOf(facts);
    this.correlationId = this.correlationIds.at(-1)!;
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
