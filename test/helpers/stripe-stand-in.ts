import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A wire-level stand-in for the few Stripe endpoints the service calls (customers, setup intents, mandates, payment
 * intents): a real HTTP server that the real SDK reaches through STRIPE_API_BASE. It answers in Stripe's shapes,
 * honours Idempotency-Key like Stripe (the same key replays the first answer; with other parameters it is a 400
 * idempotency_error), records every request, and can be made to fail. Helpers play Stripe's side afterwards: a
 * customer confirming a mandate, a bank settling or refusing a debit, a payer disputing one.
 */
export interface StandInRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | undefined;
}

export type StandInMode = 'normal' | 'auth-error' | 'server-error';

type StripeObject = Record<string, unknown>;

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  readonly setupIntents = new Map<string, Record<string, unknown>>();
  readonly mandates = new Map<string, Record<string, unknown>>();
  readonly paymentIntents = new Map<string, StripeObject>();
  mode: StandInMode = 'normal';
  /**
   * Called with each new PaymentIntent before Stripe's answer leaves: what Stripe does at once (send
   * `payment_intent.processing`) happens while the caller still waits for the answer.
   */
  onPaymentIntentCreated: ((intent: StripeObject) => Promise<void>) | null = null;
  private readonly byKey = new Map<string, { body: string; response: StripeObject }>();
  private server: Server | null = null;
  url = '';

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Stripe's side of a customer confirming the BECS mandate: the intent succeeds with an active mandate. */
  succeed(setupIntentId: string, acceptedAt = Math.floor(Date.now() / 1000)) {
    const intent = this.setupIntents.get(setupIntentId)!;
    const mandate = {
      id: id('mandate'),
      object: 'mandate',
      customer_acceptance: { accepted_at: acceptedAt, type: 'online', online: { ip_address: '203.0.113.7' } },
      livemode: false,
      payment_method: id('pm'),
      payment_method_details: {
        type: 'au_becs_debit',
        au_becs_debit: { url: `https://stripe.test/mandates/${setupIntentId}` },
      },
      status: 'active',
      type: 'multi_use',
      multi_use: {},
    };
    this.mandates.set(mandate.id, mandate);
    Object.assign(intent, { status: 'succeeded', mandate: mandate.id, payment_method: mandate.payment_method });
    return { intent, mandate };
  }

  /** The bank collected the debit: the PaymentIntent succeeds (what `payment_intent.succeeded` carries). */
  succeedPayment(paymentIntentId: string): StripeObject {
    const intent = this.paymentIntents.get(paymentIntentId)!;
    return Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: id('py'),
      processing: null,
    });
  }

  /**
   * The bank refused the debit: the PaymentIntent goes back to requires_payment_method with the reason in
   * `last_payment_error` (what `payment_intent.payment_failed` carries).
   */
  failPayment(
    paymentIntentId: string,
    error: { code?: string; decline_code?: string; message?: string; type?: string },
  ): StripeObject {
    const intent = this.paymentIntents.get(paymentIntentId)!;
    return Object.assign(intent, {
      status: 'requires_payment_method',
      latest_charge: id('py'),
      processing: null,
      last_payment_error: { type: 'card_error', payment_method: { id: intent.payment_method }, ...error },
    });
  }

  /** The payer disputes a collected debit with their bank: the Dispute object `charge.dispute.created` carries. */
  dispute(paymentIntentId: string, reason = 'debit_not_authorized'): StripeObject {
    const intent = this.paymentIntents.get(paymentIntentId)!;
    return {
      id: id('du'),
      object: 'dispute',
      amount: intent.amount,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: intent.id,
      reason,
      status: 'needs_response',
      is_charge_refundable: false,
      balance_transactions: [],
      metadata: {},
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
  }

  /** The payer revokes the mandate at their bank: the Mandate object becomes inactive (`mandate.updated`). */
  revokeMandate(mandateId: string): StripeObject {
    return Object.assign(this.mandates.get(mandateId)!, { status: 'inactive' });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = Buffer.concat(chunks).toString('utf8');
    const params = new URLSearchParams(body || url.search);
    const key = req.headers['idempotency-key'];
    const idempotencyKey = Array.isArray(key) ? key[0] : key;
    this.requests.push({ method: req.method ?? '', path: url.pathname, params, idempotencyKey });
    if (this.mode === 'auth-error')
      return send(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' },
      });
    if (this.mode === 'server-error')
      return send(res, 500, { error: { type: 'api_error', message: 'Stripe is down' } });
    const replay = idempotencyKey ? this.byKey.get(`${url.pathname}:${idempotencyKey}`) : undefined;
    if (req.method === 'POST' && replay) {
      if (replay.body !== body)
        return send(res, 400, {
          error: {
            type: 'idempotency_error',
            message:
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          },
        });
      return send(res, 200, replay.response, { 'idempotent-replayed': 'true' });
    }
    if (req.method === 'POST' && url.pathname === '/v1/payment_intents')
      return this.createPaymentIntent(res, params, { body, idempotencyKey });
    const created = this.route(req.method ?? '', url.pathname, params);
    if (!created) return send(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
    // Stripe replays the answer as first given, not the object as it is by then.
    if (req.method === 'POST' && idempotencyKey)
      this.byKey.set(`${url.pathname}:${idempotencyKey}`, { body, response: structuredClone(created) });
    return send(res, 200, created);
  }

  /**
   * POST /v1/payment_intents, confirmed off-session on a BECS mandate: a BECS debit is `processing` until the bank
   * answers, days later. A mandate Stripe does not know, or of another payment method, is refused as Stripe does.
   */
  private async createPaymentIntent(
    res: ServerResponse,
    params: URLSearchParams,
    request: { body: string; idempotencyKey: string | undefined },
  ) {
    const mandate = params.get('mandate') ? this.mandates.get(params.get('mandate')!) : undefined;
    const refusal = (message: string, param: string) =>
      send(res, 400, { error: { type: 'invalid_request_error', code: 'resource_missing', message, param } });
    if (params.get('mandate') && !mandate) return refusal(`No such mandate: '${params.get('mandate')}'`, 'mandate');
    if (mandate && mandate.payment_method !== params.get('payment_method'))
      return refusal('The mandate is not of this payment method', 'payment_method');
    const intentId = id('pi');
    const confirmed = params.get('confirm') === 'true';
    const intent: StripeObject = {
      id: intentId,
      object: 'payment_intent',
      amount: Number(params.get('amount')),
      amount_received: 0,
      currency: params.get('currency'),
      customer: params.get('customer'),
      payment_method: params.get('payment_method'),
      allowed_payment_method_types: listParam(params, 'allowed_payment_method_types'),
      payment_method_types: ['au_becs_debit'],
      description: params.get('description'),
      metadata: metadataOf(params),
      status: confirmed ? 'processing' : 'requires_confirmation',
      processing: confirmed ? { type: 'au_becs_debit' } : null,
      last_payment_error: null,
      latest_charge: null,
      client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    this.paymentIntents.set(intentId, intent);
    if (request.idempotencyKey)
      this.byKey.set(`/v1/payment_intents:${request.idempotencyKey}`, {
        body: request.body,
        response: structuredClone(intent),
      });
    await this.onPaymentIntentCreated?.(structuredClone(intent));
    return send(res, 200, intent);
  }

  private route(method: string, path: string, params: URLSearchParams): Record<string, unknown> | undefined {
    if (method === 'POST' && path === '/v1/customers')
      return { id: id('cus'), object: 'customer', email: params.get('email'), name: params.get('name') };
    if (method === 'POST' && path === '/v1/setup_intents') {
      const intentId = id('seti');
      const intent = {
        id: intentId,
        object: 'setup_intent',
        client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
        customer: params.get('customer'),
        allowed_payment_method_types: listParam(params, 'allowed_payment_method_types'),
        usage: params.get('usage'),
        status: 'requires_payment_method',
        metadata: metadataOf(params),
        mandate: null,
        last_setup_error: null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      this.setupIntents.set(intentId, intent);
      return intent;
    }
    const intent = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intent) return this.setupIntents.get(intent[1]!);
    const mandate = /^\/v1\/mandates\/([^/]+)$/.exec(path);
    if (method === 'GET' && mandate) return this.mandates.get(mandate[1]!);
    return undefined;
  }
}

/** A list parameter as the SDK encodes it (`name[0]=…&name[1]=…`). */
const listParam = (params: URLSearchParams, name: string) =>
  [...params].filter(([k]) => k.startsWith(`${name}[`)).map(([, v]) => v);

const metadataOf = (params: URLSearchParams) =>
  Object.fromEntries([...params].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]));

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
  res.end(JSON.stringify(body));
}

/** A Stripe event around `object`, signed as Stripe signs it, ready to POST to /webhooks/stripe. */
export function signedEvent(
  secret: string,
  type: string,
  object: unknown,
  options: { id?: string; created?: number; signWith?: string } = {},
) {
  const event = {
    id: options.id ?? id('evt'),
    object: 'event',
    type,
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    api_version: Stripe.API_VERSION,
    data: { object },
  };
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.signWith ?? secret });
  return { event, payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
}
