import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { PaymentProvider } from '../../src/infrastructure/payments/provider.js';
import { WebhookDeliveryWorker } from '../../src/services/webhooks/worker.js';
import { webhookSettings } from '../../src/services/webhooks/settings.js';
import type { TestApp } from '../helpers/test-app.js';

export interface Received {
  at: number;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  json<T = any>(): T;
}

/**
 * A partner's webhook receiver: a real HTTP server on 127.0.0.1 that records every request and answers with the
 * status `respond` chooses for the n-th request (1-based), 200 by default.
 */
export async function startReceiver() {
  const requests: Received[] = [];
  let respond: (n: number, body: string) => number = () => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = respond(requests.length + 1, body);
      requests.push({
        at: Date.now(),
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
        status,
        json: () => JSON.parse(body),
      });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : `receiver says no (${status})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    respondWith(fn: (n: number, body: string) => number) {
      respond = fn;
    },
    ofType: (type: string) => requests.filter((r) => r.json<{ type: string }>().type === type),
    /** Resolves when `predicate` holds, polling every 50 ms; fails after `timeoutMs`. */
    async waitFor(predicate: () => boolean, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Verifies a received request with the standardwebhooks package, as a partner would; throws when it does not. */
export function verify(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, request.headers);
}

/** The delivery worker of the service, for a test app: `run()` drains due attempts, `poll()` works like production. */
export function webhookWorker(t: TestApp, options: { pollingIntervalSeconds?: number; now?: () => Date } = {}) {
  return new WebhookDeliveryWorker(t.jobQueue, t.database, webhookSettings(t.config), {
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5,
    pruneIntervalMs: 0,
    now: options.now,
  });
}

/** Whether `secret` produced one of the request's signatures (whatever its timestamp's age). */
export function signedWith(secret: string, request: Received): boolean {
  const at = new Date(Number(request.headers['webhook-timestamp']) * 1000);
  const expected = new Webhook(secret).sign(request.headers['webhook-id']!, at, request.body);
  return request.headers['webhook-signature']!.split(' ').includes(expected);
}

/** Production has no payment simulator; these tests never create mandates there. */
export const noPaymentProvider: PaymentProvider = {
  name: 'none',
  createSetupIntent: () => Promise.reject(new Error('no payment provider in this test')),
  retrieveSetupIntent: () => Promise.resolve(null),
  createDebit: () => Promise.reject(new Error('no payment provider in this test')),
};

export const PRODUCTION_ENV = {
  APP_ENV: 'production',
  // A generated key: production refuses a placeholder such as 'a' × 64 (docs/security.md).
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
};

export async function registerEndpoint(t: TestApp, url: string, events: string[] = ['*'], headers = {}) {
  const response = await t.post('/webhook-endpoints', { url, events }, { headers });
  if (response.statusCode !== 201) throw new Error(`endpoint refused: ${response.body}`);
  return response.json().data.items as { id: string; secret: string; url: string; status: string };
}
