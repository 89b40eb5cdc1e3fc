import { PartnerApiError, PartnerNetworkError, PartnerTimeoutError, type ErrorEnvelope } from './errors.js';

export interface RetryOptions {
  /** Requests per call, the first included. Default 4. */
  maxAttempts: number;
  /** Time budget of the whole call, waits included; no retry starts past it. Default 30 000 ms. */
  maxElapsedMs: number;
  /** Backoff: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]. Default 200 ms. */
  baseDelayMs: number;
  /** Default 5 000 ms. */
  maxDelayMs: number;
  /** Statuses worth retrying. Default 429, 500, 502, 503, 504 (the contract calls 429, 500 and 503 retryable). */
  retryOn: readonly number[];
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  maxElapsedMs: 30_000,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  retryOn: [429, 500, 502, 503, 504],
};

export interface CallOptions {
  /** Cancels the call, retries and waits included; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time allowed for each attempt. Default: the client's `timeoutMs`. */
  timeoutMs?: number;
  /** POST only: the Idempotency-Key to send. Default: a fresh UUID per call, the same on each of its retries. */
  idempotencyKey?: string;
  /**
   * The X-Correlation-ID of the call's first attempt (e.g. one already in your logs). Each retry sends a fresh UUID
   * all the same: the API wants one per request, and a support search must find each attempt on its own.
   * Default: a fresh UUID.
   */
  correlationId?: string;
  retry?: Partial<RetryOptions>;
}

/** A successful answer. `data` is the envelope's `data.items` (the whole body for the operational endpoints). */
export interface ApiResult<T> {
  data: T;
  status: number;
  /** The X-Correlation-ID of the attempt that got this answer (the last of `correlationIds`). */
  correlationId: string;
  /** The X-Correlation-ID of every attempt, in order: one per request made, so `attempts` of them. */
  correlationIds: string[];
  attempts: number;
  /** The server replayed the stored response of an earlier request (same Idempotency-Key or transaction.id). */
  replayed: boolean;
  headers: Headers;
  /** The parsed body, envelope included. */
  body: unknown;
}

export interface TransportConfig {
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  retry: RetryOptions;
  fetch: typeof fetch;
  /** For tests: the wait between attempts, and the clock. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base URL, parameters already substituted. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
}

type Attempt = { response: Response; body: unknown } | { failure: PartnerNetworkError };

/** One call: attempts until success, a final answer, or the attempt/time budget is spent. */
export async function send<T>(config: TransportConfig, request: HttpRequest, options: CallOptions = {}) {
  const retry = { ...config.retry, ...options.retry };
  const sleep = config.sleep ?? abortableSleep;
  const random = config.random ?? Math.random;
  const headers: Record<string, string> = { ...config.headers };
  // Chosen once per call, outside the loop: every retry must present the same key for the server to replay the
  // first answer instead of acting twice.
  if (request.method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const url = buildUrl(config.baseUrl, request);
  const started = Date.now();
  const correlationIds: string[] = [];

  for (let attempts = 1; ; attempts++) {
    const remaining = retry.maxElapsedMs - (Date.now() - started);
    const timeoutMs = Math.max(1, Math.min(options.timeoutMs ?? config.timeoutMs, remaining));
    // A fresh id per request, retries included, as the API asks: each attempt is its own request in the server's
    // logs, and a support search for one id must not mix a timed-out attempt with the one that succeeded.
    const correlationId = (attempts === 1 ? options.correlationId : undefined) ?? crypto.randomUUID();
    correlationIds.push(correlationId);
    // A snapshot: what this attempt reports (its error, or the result) must not change as later attempts are made.
    const facts = { correlationIds: [...correlationIds], attempts };
    const attemptHeaders = { ...headers, 'x-correlation-id': correlationId };
    const attempt = await attemptOnce(config.fetch, url, request, attemptHeaders, timeoutMs, facts, options.signal);
    if ('response' in attempt && attempt.response.ok) {
      const { response, body } = attempt;
      const items = (body as { data?: { items?: unknown } } | null)?.data;
      return {
        data: (items && 'items' in items ? items.items : body) as T,
        status: response.status,
        correlationId,
        correlationIds: facts.correlationIds,
        attempts,
        replayed: response.headers.get('idempotent-replayed') === 'true',
        headers: response.headers,
        body,
      } satisfies ApiResult<T>;
    }
    const error =
      'failure' in attempt
        ? attempt.failure
        : new PartnerApiError(attempt.response.status, attempt.body as ErrorEnvelope | string | null, {
            ...facts,
            retryAfterSeconds: retryAfterSeconds(attempt.response.headers.get('retry-after')),
          });
    const retryable = error instanceof PartnerNetworkError || retry.retryOn.includes(error.status);
    if (!retryable || attempts >= retry.maxAttempts) throw error;
    const backoff = random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempts - 1));
    const wait =
      error instanceof PartnerApiError && error.retryAfterSeconds !== undefined
        ? error.retryAfterSeconds * 1000
        : backoff;
    if (Date.now() - started + wait >= retry.maxElapsedMs) throw error;
    await sleep(wait, options.signal);
  }
}

async function attemptOnce(
  fetchImpl: typeof fetch,
  url: string,
  request: HttpRequest,
  headers: Record<string, string>,
  timeoutMs: number,
  facts: { correlationIds: string[]; attempts: number },
  signal: AbortSignal | undefined,
): Promise<Attempt> {
  signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new PartnerTimeoutError(timeoutMs, facts)), timeoutMs);
  try {
    const response = await fetchImpl(url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: controller.signal,
    });
    const text = await response.text();
    return { response, body: parse(text) };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (controller.signal.reason instanceof PartnerTimeoutError) return { failure: controller.signal.reason };
    return { failure: new PartnerNetworkError(`Request failed: ${(err as Error).message}`, facts, err) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function buildUrl(baseUrl: string, request: HttpRequest): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {}))
    if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}${request.path}${search ? `?${search}` : ''}`;
}

function parse(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
