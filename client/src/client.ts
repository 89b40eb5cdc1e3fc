import type { paths } from './schema.js';
import { DEFAULT_RETRY, send, type ApiResult, type CallOptions, type RetryOptions } from './transport.js';

export type Environment = 'sit' | 'uat' | 'staging' | 'production';

export interface PartnerClientOptions {
  /** `{base_url}` of the environment, version prefix included, e.g. `https://…/v1`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The environment the credentials belong to. Default: read from the client id (`sit_…`); a mismatch throws. */
  environment?: Environment;
  /** Also send `Authorization: Basic` (deployments that require it). */
  basicAuth?: boolean;
  /** Time allowed for each attempt. Default 10 000 ms. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Another fetch implementation (a proxy agent, a test double). */
  fetch?: typeof fetch;
}

type Method = 'get' | 'post';
type Operation<P extends keyof paths, M extends Method> = paths[P][M];
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type SuccessBody<O> = O extends { responses: infer R } ? Json<R[Extract<keyof R, 200 | 201 | 202>]> : never;
/** What a call resolves with: `data.items` of the envelope, or the whole body of the operational endpoints. */
export type ResultOf<P extends keyof paths, M extends Method> =
  SuccessBody<Operation<P, M>> extends { data: { items: infer I } } ? I : SuccessBody<Operation<P, M>>;
/** The JSON body an operation takes. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters an operation takes. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query: infer Q } } ? Q : never;

export type DonationRequest = BodyOf<'/donations', 'post'>;
export type MandateRequest = BodyOf<'/mandates', 'post'>;
export type RemittancesRequest = BodyOf<'/remittances', 'post'>;
export type RecurringDonationRequest = BodyOf<'/recurring-donations', 'post'>;
export type DebitRequest = BodyOf<'/mandates/{mandateId}/debits', 'post'>;
export type ReversalRequest = BodyOf<'/donations/{donationReferenceId}/reversals', 'post'>;
/** The contract's channels; operators may add others, so any string is accepted. */
export type Channel = 'Storefront App' | 'Registration Integration' | (string & {});

/**
 * The partner API, typed from its OpenAPI document. Every request sends the credentials and a fresh
 * X-Correlation-ID, retries included, and a POST an Idempotency-Key that its retries reuse (`correlationIds` on the
 * result and on every error lists each attempt's id); network errors, 429 and 5xx are retried (honouring
 * Retry-After, otherwise exponential backoff with full jitter) within `retry.maxAttempts` and `retry.maxElapsedMs`.
 * A call resolves with an `ApiResult` or rejects with a `PartnerApiError` (the API said no), a
 * `PartnerNetworkError`/`PartnerTimeoutError` (no answer), or the AbortSignal's reason.
 */
export class PartnerClient {
  readonly environment: Environment | undefined;
  private readonly config: Parameters<typeof send>[0];

  constructor(options: PartnerClientOptions) {
    const fromId = /^(sit|uat|staging|production)_/.exec(options.clientId)?.[1] as Environment | undefined;
    if (options.environment && fromId && options.environment !== fromId)
      throw new TypeError(`client_id ${options.clientId} belongs to ${fromId}, not ${options.environment}`);
    this.environment = options.environment ?? fromId;
    const headers: Record<string, string> = { client_id: options.clientId, client_secret: options.clientSecret };
    if (options.basicAuth) headers.authorization = `Basic ${btoa(`${options.clientId}:${options.clientSecret}`)}`;
    this.config = {
      baseUrl: options.baseUrl,
      headers,
      timeoutMs: options.timeoutMs ?? 10_000,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    };
  }

  /** GET /fundraisers: is the fundraiser enrolled with the channel? Call it before a donation or a mandate. */
  validateFundraiser(query: { channel: Channel; id: string }, options?: CallOptions) {
    return this.call<'/fundraisers', 'get'>({ method: 'GET', path: '/fundraisers', query }, options);
  }

  /** POST /donations. Resolves with `donationReferenceId`: keep it, remittances refer to it. */
  recordDonation(body: DonationRequest, options?: CallOptions) {
    return this.call<'/donations', 'post'>({ method: 'POST', path: '/donations', body }, options);
  }

  /** GET /donations/{id}: your donation as recorded, its net amount, its reversals and its settlement. */
  getDonation(donationReferenceId: string, options?: CallOptions) {
    const path = `/donations/${encodeURIComponent(donationReferenceId)}`;
    return this.call<'/donations/{donationReferenceId}', 'get'>({ method: 'GET', path }, options);
  }

  /** POST /donations/{id}/reversals: takes back all or part of a donation; `transaction.id` makes a retry safe. */
  reverseDonation(donationReferenceId: string, body: ReversalRequest, options?: CallOptions) {
    const path = `/donations/${encodeURIComponent(donationReferenceId)}/reversals`;
    return this.call<'/donations/{donationReferenceId}/reversals', 'post'>({ method: 'POST', path, body }, options);
  }

  /** POST /mandates: resolves with `mandateId` and the `clientSecret` the front end confirms it with. */
  createMandate(body: MandateRequest, options?: CallOptions) {
    return this.call<'/mandates', 'post'>({ method: 'POST', path: '/mandates', body }, options);
  }

  /** GET /mandates?id=…: `mandate` is `{}` until the status is `succeeded`. */
  getMandate(id: string, options?: CallOptions) {
    return this.call<'/mandates', 'get'>({ method: 'GET', path: '/mandates', query: { id } }, options);
  }

  /** POST /remittances: 202 once stored; read the outcome with `getRemittanceReport(batchId)`. */
  postRemittances(body: RemittancesRequest, options?: CallOptions) {
    return this.call<'/remittances', 'post'>({ method: 'POST', path: '/remittances', body }, options);
  }

  /** GET /remittances/{batchId}: the reconciliation report of a batch. */
  getRemittanceReport(batchId: string, options?: CallOptions) {
    const path = `/remittances/${encodeURIComponent(batchId)}`;
    return this.call<'/remittances/{batchId}', 'get'>({ method: 'GET', path }, options);
  }

  /** GET /accounts/{id}?channel=…: the account with the product of the channel. */
  getAccount(id: string, channel: Channel, options?: CallOptions) {
    const path = `/accounts/${encodeURIComponent(id)}`;
    return this.call<'/accounts/{id}', 'get'>({ method: 'GET', path, query: { channel } }, options);
  }

  /** POST /recurring-donations: debits a succeeded mandate on a schedule; each collected debit becomes a donation. */
  createRecurringDonation(body: RecurringDonationRequest, options?: CallOptions) {
    return this.call<'/recurring-donations', 'post'>({ method: 'POST', path: '/recurring-donations', body }, options);
  }

  /** GET /recurring-donations/{id}: the plan, its next date and its debits. */
  getRecurringDonation(id: string, options?: CallOptions) {
    const path = `/recurring-donations/${encodeURIComponent(id)}`;
    return this.call<'/recurring-donations/{id}', 'get'>({ method: 'GET', path }, options);
  }

  /** GET /recurring-donations: your plans (of one mandate), a page at a time (`nextCursor`). */
  listRecurringDonations(query: { mandateId?: string; limit?: number; cursor?: string } = {}, options?: CallOptions) {
    const text = {
      mandateId: query.mandateId,
      limit: query.limit === undefined ? undefined : String(query.limit),
      cursor: query.cursor,
    };
    return this.call<'/recurring-donations', 'get'>(
      { method: 'GET', path: '/recurring-donations', query: text },
      options,
    );
  }

  /** POST /recurring-donations/{id}/cancel: no further debits. */
  cancelRecurringDonation(id: string, options?: CallOptions) {
    const path = `/recurring-donations/${encodeURIComponent(id)}/cancel`;
    return this.call<'/recurring-donations/{id}/cancel', 'post'>({ method: 'POST', path, body: {} }, options);
  }

  /** POST /mandates/{mandateId}/debits: one debit; `transaction.id` makes a retry safe. */
  createDebit(mandateId: string, body: DebitRequest, options?: CallOptions) {
    const path = `/mandates/${encodeURIComponent(mandateId)}/debits`;
    return this.call<'/mandates/{mandateId}/debits', 'post'>({ method: 'POST', path, body }, options);
  }

  /** GET /debits/{debitId}: one debit, with the donation it became once collected. */
  getDebit(debitId: string, options?: CallOptions) {
    const path = `/debits/${encodeURIComponent(debitId)}`;
    return this.call<'/debits/{debitId}', 'get'>({ method: 'GET', path }, options);
  }

  /** Sandbox only: move your sandbox clock forward (an ISO 8601 duration) and make what falls due happen. */
  advanceSandboxClock(duration: string, options?: CallOptions) {
    const body = { duration };
    return this.call<'/sandbox/clock/advance', 'post'>(
      { method: 'POST', path: '/sandbox/clock/advance', body },
      options,
    );
  }

  /** Sandbox only: confirm a mandate with the simulator's test bank details (BSB 000-000, account 000123456). */
  confirmSandboxMandate(id: string, bank: BodyOf<'/sandbox/mandates/{id}/confirm', 'post'>, options?: CallOptions) {
    const path = `/sandbox/mandates/${encodeURIComponent(id)}/confirm`;
    return this.call<'/sandbox/mandates/{id}/confirm', 'post'>({ method: 'POST', path, body: bank }, options);
  }

  health(options?: CallOptions) {
    return this.call<'/health', 'get'>({ method: 'GET', path: '/health' }, options);
  }

  ping(options?: CallOptions) {
    return this.call<'/ping', 'get'>({ method: 'GET', path: '/ping' }, options);
  }

  info(options?: CallOptions) {
    return this.call<'/info', 'get'>({ method: 'GET', path: '/info' }, options);
  }

  /**
   * Any operation of the document, typed by its path and method (for operations added after this client's
   * convenience methods): `client.call<'/ping', 'get'>({ method: 'GET', path: '/ping' })`.
   */
  call<P extends keyof paths, M extends Method>(
    request: { method: Uppercase<M>; path: string; query?: Record<string, string | undefined>; body?: unknown },
    options?: CallOptions,
  ): Promise<ApiResult<ResultOf<P, M>>> {
    return send<ResultOf<P, M>>(this.config, request, options);
  }
}
