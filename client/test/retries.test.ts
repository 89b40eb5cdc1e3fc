import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PartnerApiError,
  PartnerClient,
  PartnerNetworkError,
  PartnerTimeoutError,
  type ErrorEnvelope,
} from '../src/index.js';
import { DEFAULT_RETRY, retryAfterSeconds, send } from '../src/transport.js';

/** Retries, timeouts and cancellation against a local node:http server that misbehaves on purpose. */

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, attempt: number) => void;
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Handler) {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.headers);
    request.resume();
    handler(request, response, requests.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { baseUrl, requests };
}

const ok = (response: http.ServerResponse) =>
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ apiVersion: '1.0.0', correlationId: 'c', method: '/donations', data: { items: { ok: 1 } } }));
const envelope = (code: string, cause?: string) =>
  JSON.stringify({
    apiVersion: '1.0.0',
    correlationId: 'c',
    method: '/',
    error: { code, timeStamp: 't', message: 'm', cause },
  });
const client = (baseUrl: string, extra: Partial<ConstructorParameters<typeof PartnerClient>[0]> = {}) =>
  new PartnerClient({ baseUrl, clientId: 'sit_abc', clientSecret: 'secret', retry: { baseDelayMs: 5 }, ...extra });

describe('retries', () => {
  it('retries a reset connection and a 429, keeping one Idempotency-Key', async () => {
    const { baseUrl, requests } = await serve((request, response, attempt) => {
      if (attempt === 1) return request.socket.destroy();
      if (attempt === 2) return response.writeHead(429, { 'retry-after': '0' }).end(envelope('FUNDRAISER:RATE_LIMIT'));
      ok(response);
    });
    const result = await client(baseUrl).call({ method: 'POST', path: '/donations', body: {} });
    expect(result).toMatchObject({ status: 200, attempts: 3, data: { ok: 1 } });
    expect(new Set(requests.map((r) => r['idempotency-key'])).size).toBe(1);
    expect(requests[0]).toMatchObject({ client_id: 'sit_abc', client_secret: 'secret' });
  });

  it('does not retry what a retry cannot fix (400), and says why', async () => {
    const { baseUrl, requests } = await serve((_request, response) =>
      response
        .writeHead(400)
        .end(envelope('FUNDRAISER:VALIDATION', 'donor.email: is required; source.channel: is required')),
    );
    const error = (await client(baseUrl)
      .recordDonation({} as never)
      .catch((e: unknown) => e)) as PartnerApiError;
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ status: 400, code: 'FUNDRAISER:VALIDATION', attempts: 1 });
    expect(error.causes).toEqual(['donor.email: is required', 'source.channel: is required']);
    expect(error.correlationId).toBe(requests[0]!['x-correlation-id']);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const { baseUrl, requests } = await serve((_request, response) => response.writeHead(503).end('upstream down'));
    const error = await client(baseUrl, { retry: { maxAttempts: 3, baseDelayMs: 1 } })
      .ping()
      .catch((e: PartnerApiError) => e);
    expect(error).toMatchObject({ status: 503, code: 'HTTP_503', attempts: 3, body: 'upstream down' });
    expect(requests).toHaveLength(3);
  });

  it('does not wait for a Retry-After beyond the time budget', async () => {
    const { baseUrl, requests } = await serve((_request, response) =>
      response.writeHead(429, { 'retry-after': '120' }).end(envelope('FUNDRAISER:RATE_LIMIT')),
    );
    const started = Date.now();
    const error = await client(baseUrl, { retry: { maxElapsedMs: 5_000 } })
      .ping()
      .catch((e: PartnerApiError) => e);
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 120, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(requests).toHaveLength(1);
  });

  it('backs off exponentially with full jitter, capped, when the server gives no Retry-After', async () => {
    const waits: number[] = [];
    const fetchImpl = async () => new Response('', { status: 503 });
    const config = {
      baseUrl: 'http://x',
      headers: {},
      timeoutMs: 1000,
      retry: { ...DEFAULT_RETRY, maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1000 },
      fetch: fetchImpl as typeof fetch,
      sleep: async (ms: number) => void waits.push(ms),
      random: () => 0.5,
    };
    await expect(send(config, { method: 'GET', path: '/ping' })).rejects.toBeInstanceOf(PartnerApiError);
    expect(waits).toEqual([50, 100, 200, 400, 500]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds(new Date(Date.now() + 3_000).toUTCString())).toBeGreaterThanOrEqual(2);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sentIds = (requests: http.IncomingHttpHeaders[]) => requests.map((r) => r['x-correlation-id']);

/** The global fetch, noting the headers of each request in the order the client makes them. */
function recordingFetch() {
  const sent: Record<string, string>[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    sent.push({ ...(init?.headers as Record<string, string>) });
    return fetch(input, init);
  };
  return { sent, fetch: fetchImpl };
}

describe('correlation ids and idempotency keys across attempts', () => {
  it('sends a fresh UUID correlation id with every attempt and one Idempotency-Key for all of them', async () => {
    const { baseUrl, requests } = await serve((request, response, attempt) => {
      if (attempt === 1) return request.socket.destroy();
      if (attempt === 2) return response.writeHead(429, { 'retry-after': '0' }).end(envelope('FUNDRAISER:RATE_LIMIT'));
      if (attempt === 3) return response.writeHead(500).end(envelope('FUNDRAISER:INTERNAL'));
      ok(response);
    });
    const result = await client(baseUrl).recordDonation({} as never);
    expect(result).toMatchObject({ status: 200, attempts: 4 });

    const ids = sentIds(requests);
    expect(ids).toHaveLength(4);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(4);
    expect(result.correlationIds).toEqual(ids);
    expect(result.correlationId).toBe(ids[3]);

    const keys = requests.map((r) => r['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys).toEqual([keys[0], keys[0], keys[0], keys[0]]);
    expect(keys[0]).not.toBe(ids[0]);
  });

  it("keeps the caller's Idempotency-Key on every attempt and its correlation id for the first only", async () => {
    const { baseUrl, requests } = await serve((_request, response, attempt) =>
      attempt < 3
        ? response.writeHead(503, { 'retry-after': '0' }).end(envelope('FUNDRAISER:UNAVAILABLE'))
        : ok(response),
    );
    const mine = '0b5c8a7e-1d2f-4e3a-9b4c-5d6e7f8a9b0c';
    const result = await client(baseUrl).call(
      { method: 'POST', path: '/donations', body: {} },
      { idempotencyKey: 'order-1001', correlationId: mine },
    );
    expect(requests.map((r) => r['idempotency-key'])).toEqual(['order-1001', 'order-1001', 'order-1001']);
    const ids = sentIds(requests);
    expect(ids[0]).toBe(mine);
    expect(ids[1]).toMatch(UUID);
    expect(ids[2]).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
    expect(result.correlationIds).toEqual(ids);
  });

  it('sends no Idempotency-Key with a GET, and still a fresh correlation id per attempt', async () => {
    const { baseUrl, requests } = await serve((_request, response, attempt) =>
      attempt === 1 ? response.writeHead(503, { 'retry-after': '0' }).end() : ok(response),
    );
    const result = await client(baseUrl).ping();
    expect(requests.map((r) => r['idempotency-key'])).toEqual([undefined, undefined]);
    expect(result.correlationIds).toEqual(sentIds(requests));
    expect(result.correlationIds[0]).not.toBe(result.correlationIds[1]);
  });

  it('names every attempt of a call the API kept refusing, in order, the last as correlationId', async () => {
    // Echoes each request's id in its error envelope, as the service does, to tell which answer the error holds.
    const { baseUrl, requests } = await serve((request, response) =>
      response.writeHead(503, { 'retry-after': '0' }).end(
        JSON.stringify({
          apiVersion: '1.0.0',
          correlationId: request.headers['x-correlation-id'],
          method: '/donations',
          error: { code: 'FUNDRAISER:UNAVAILABLE', timeStamp: 't', message: 'Service unavailable' },
        }),
      ),
    );
    const error = (await client(baseUrl, { retry: { maxAttempts: 3 } })
      .recordDonation({} as never)
      .catch((e: unknown) => e)) as PartnerApiError;
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ status: 503, attempts: 3, message: 'Service unavailable' });
    const ids = sentIds(requests);
    expect(new Set(ids).size).toBe(3);
    expect(error.correlationIds).toEqual(ids);
    expect(error.correlationId).toBe(ids[2]);
    expect((error.body as ErrorEnvelope).correlationId).toBe(error.correlationId);
    expect(new Set(requests.map((r) => r['idempotency-key'])).size).toBe(1);
  });

  it('names every attempt of a call that timed out each time', async () => {
    const { baseUrl } = await serve(() => undefined); // never answers
    const recording = recordingFetch();
    const error = (await client(baseUrl, { timeoutMs: 50, retry: { maxAttempts: 3, baseDelayMs: 1 }, ...recording })
      .recordDonation({} as never)
      .catch((e: unknown) => e)) as PartnerTimeoutError;
    expect(error).toBeInstanceOf(PartnerTimeoutError);
    const ids = recording.sent.map((h) => h['x-correlation-id']);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
    expect(error).toMatchObject({ attempts: 3, correlationIds: ids, correlationId: ids[2] });
    expect(new Set(recording.sent.map((h) => h['idempotency-key'])).size).toBe(1);
  });

  it('names every attempt of a call whose connection was refused each time', async () => {
    const recording = recordingFetch();
    const error = (await client('http://127.0.0.1:1/v1', { retry: { maxAttempts: 3, baseDelayMs: 1 }, ...recording })
      .ping()
      .catch((e: unknown) => e)) as PartnerNetworkError;
    expect(error).toBeInstanceOf(PartnerNetworkError);
    const ids = recording.sent.map((h) => h['x-correlation-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(error).toMatchObject({ attempts: 3, correlationIds: ids, correlationId: ids[2] });
  });

  it('still builds an error from a single correlation id', () => {
    const error = new PartnerNetworkError('Request failed', { correlationId: 'abc', attempts: 1 });
    expect(error).toMatchObject({ correlationId: 'abc', correlationIds: ['abc'] });
    expect(() => new PartnerApiError(500, null, { correlationIds: [], attempts: 0 })).toThrow(TypeError);
  });
});

describe('timeouts and cancellation', () => {
  it('times each attempt out and rejects with a PartnerTimeoutError after the last', async () => {
    const { baseUrl, requests } = await serve(() => undefined); // never answers
    const error = await client(baseUrl, { timeoutMs: 100, retry: { maxAttempts: 2, baseDelayMs: 1 } })
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerTimeoutError);
    expect(error).toBeInstanceOf(PartnerNetworkError);
    expect(error).toMatchObject({ timeoutMs: 100, attempts: 2 });
    expect(requests).toHaveLength(2);
  });

  it('takes a per-call timeout', async () => {
    const { baseUrl } = await serve((_request, response) => void setTimeout(() => ok(response), 300));
    const api = client(baseUrl, { timeoutMs: 50, retry: { maxAttempts: 1 } });
    await expect(api.ping()).rejects.toBeInstanceOf(PartnerTimeoutError);
    await expect(api.ping({ timeoutMs: 2_000 })).resolves.toMatchObject({ status: 200 });
  });

  it('stops at once when the caller aborts, even while waiting to retry', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    // Aborted once the first answer (a 503 asking for 10 s) is out, so the client is waiting to retry: however
    // slow the machine, the abort never comes before the first request.
    const { baseUrl, requests } = await serve((_request, response) => {
      response.writeHead(503, { 'retry-after': '10' }).end(envelope('FUNDRAISER:UNAVAILABLE'));
      setTimeout(() => {
        abortedAt = Date.now();
        controller.abort(new Error('user navigated away'));
      }, 100);
    });
    await expect(client(baseUrl).ping({ signal: controller.signal })).rejects.toThrow('user navigated away');
    // Well before the 10 s the server asked for.
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(requests).toHaveLength(1);
  });

  it('reports a refused connection as a PartnerNetworkError', async () => {
    const error = await client('http://127.0.0.1:1/v1', { retry: { maxAttempts: 2, baseDelayMs: 1 } })
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerNetworkError);
    expect(error).not.toBeInstanceOf(PartnerTimeoutError);
    expect(error).toMatchObject({ attempts: 2 });
  });
});
