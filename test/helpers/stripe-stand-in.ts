import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A wire-level stand-in for the few Stripe endpoints the service calls (customers, setup intents, mandates): a real
 * HTTP server that the real SDK reaches through STRIPE_API_BASE. It answers in Stripe's shapes, honours
 * Idempotency-Key like Stripe (same key, same object), records every request, and can be made to fail.
 */
export interface StandInRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | undefined;
}

export type StandInMode = 'normal' | 'auth-error' | 'server-error';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  readonly setupIntents = new Map<string, Record<string, unknown>>();
  readonly mandates = new Map<string, Record<string, unknown>>();
  mode: StandInMode = 'normal';
  private readonly byKey = new Map<string, Record<string, unknown>>();
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

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const params = new URLSearchParams(Buffer.concat(chunks).toString('utf8') || url.search);
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
    if (req.method === 'POST' && replay) return send(res, 200, replay, { 'idempotent-replayed': 'true' });
    const created = this.route(req.method ?? '', url.pathname, params);
    if (!created) return send(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
    if (req.method === 'POST' && idempotencyKey) this.byKey.set(`${url.pathname}:${idempotencyKey}`, created);
    return send(res, 200, created);
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
        allowed_payment_method_types: [...params]
          .filter(([k]) => k.startsWith('allowed_payment_method_types['))
          .map(([, v]) => v),
        usage: params.get('usage'),
        status: 'requires_payment_method',
        metadata: Object.fromEntries(
          [...params].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]),
        ),
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
