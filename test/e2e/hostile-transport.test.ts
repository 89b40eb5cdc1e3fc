import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What Node's HTTP parser and the socket see before Fastify does, over a real socket: timeouts, oversized request
 * lines, headers and bodies, connection caps. Each answer is a real HTTP response with the envelope, and the client
 * receives it, no reset (docs/decisions/0035-transport-limits-answered-in-the-envelope.md).
 */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp({
    env: { HEADERS_TIMEOUT_MS: '800', REQUEST_TIMEOUT_MS: '5000', MAX_CONNECTIONS_PER_ADDRESS: '20' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
}, 180_000);
afterAll(async () => t?.close(), 60_000);

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  error: string | null;
}

/** Writes `chunks` (a function may write at its own pace) and reads everything until the server closes. */
function exchange(write: (socket: Socket) => unknown, timeoutMs = 15_000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | null = null;
    const done = () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(received).toString('utf8'), error));
    };
    const timer = setTimeout(() => {
      error = 'timeout';
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
    });
    socket.on('close', done);
    socket.on('connect', () => {
      void Promise.resolve(write(socket)).catch(() => undefined);
    });
  });
}

function parse(text: string, error: string | null): RawResponse {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), error };
}

function expectEnvelope(response: RawResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = JSON.parse(response.body) as { correlationId: string; error: { code: string } };
  expect(body.error.code).toBe(code);
  expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers['x-correlation-id']).toBe(body.correlationId);
}

const headers = () =>
  `Host: localhost\r\nX-Correlation-ID: ${randomUUID()}\r\nclient_id: ${t.storefront.clientId}\r\nclient_secret: ${t.storefront.clientSecret}\r\n`;

describe('answers given before routing are real responses in the envelope', () => {
  it('431 for header fields over MAX_HEADER_BYTES', async () => {
    const response = await exchange((s) =>
      s.write(`GET /v1/ping HTTP/1.1\r\n${headers()}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expectEnvelope(response, 431, 'FUNDRAISER:HEADERS_TOO_LARGE');
  });

  it('414 for a request line over the header limit, and for a URL over MAX_URL_LENGTH', async () => {
    const huge = await exchange((s) =>
      s.write(`GET /v1/fundraisers?id=${'1'.repeat(20_000)} HTTP/1.1\r\n${headers()}\r\n`),
    );
    expectEnvelope(huge, 414, 'FUNDRAISER:URI_TOO_LONG');
    const long = await exchange((s) =>
      s.write(`GET /v1/fundraisers?id=${'1'.repeat(9_000)} HTTP/1.1\r\n${headers()}Connection: close\r\n\r\n`),
    );
    expectEnvelope(long, 414, 'FUNDRAISER:URI_TOO_LONG');
  });

  it('408 when the headers stall past HEADERS_TIMEOUT_MS', async () => {
    const response = await exchange((s) => s.write(`GET /v1/ping HTTP/1.1\r\nHost: localhost\r\n`));
    expectEnvelope(response, 408, 'FUNDRAISER:REQUEST_TIMEOUT');
  });

  it('408 when a body trickles in past REQUEST_TIMEOUT_MS', async () => {
    const response = await exchange(async (s) => {
      s.write(
        `POST /v1/donations HTTP/1.1\r\n${headers()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      for (let i = 0; i < 16 && !s.destroyed; i += 1) {
        await new Promise((r) => setTimeout(r, 500));
        if (!s.destroyed) s.write(' ');
      }
    });
    expectEnvelope(response, 408, 'FUNDRAISER:REQUEST_TIMEOUT');
  });

  it('400 in the envelope for bytes that are not HTTP', async () => {
    const response = await exchange((s) => s.write('HELLO\u0000 WORLD\r\n\r\n'));
    expectEnvelope(response, 400, 'FUNDRAISER:VALIDATION');
  });
});

describe('an oversized body gets the 413 envelope, not a connection reset', () => {
  // REQUEST_TIMEOUT_MS above leaves a loaded machine seconds to send 12 MB over loopback.
  const twelveMegabytes = Buffer.alloc(12 * 1024 * 1024, 'a');

  it.each([1, 2, 3])('with Content-Length (run %i)', async () => {
    const response = await exchange((s) => {
      s.write(
        `POST /v1/donations HTTP/1.1\r\n${headers()}Content-Type: application/json\r\nContent-Length: ${twelveMegabytes.length}\r\n\r\n`,
      );
      s.write(twelveMegabytes);
    });
    expect(response.error).toBeNull();
    expectEnvelope(response, 413, 'FUNDRAISER:PAYLOAD_TOO_LARGE');
  });

  it('chunked, without Content-Length', async () => {
    const response = await exchange((s) => {
      s.write(
        `POST /v1/donations HTTP/1.1\r\n${headers()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      s.write(`${twelveMegabytes.length.toString(16)}\r\n`);
      s.write(twelveMegabytes);
      s.write('\r\n0\r\n\r\n');
      setTimeout(() => s.end(), 3000);
    });
    expect(response.error).toBeNull();
    expectEnvelope(response, 413, 'FUNDRAISER:PAYLOAD_TOO_LARGE');
  });
});

/** Opens `count` connections from 127.0.0.1 that send nothing. */
async function holdConnections(count: number): Promise<Socket[]> {
  const held: Socket[] = [];
  for (let i = 0; i < count; i += 1) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    held.push(socket);
  }
  return held;
}

describe('connection caps', () => {
  it('a client address over MAX_CONNECTIONS_PER_ADDRESS is answered 429 while other connections keep working', async () => {
    const held = await holdConnections(20);
    const refused = await exchange(() => undefined, 5000);
    for (const socket of held) socket.destroy();
    expectEnvelope(refused, 429, 'FUNDRAISER:RATE_LIMIT');
    await new Promise((r) => setTimeout(r, 200));
    const after = await exchange((s) => s.write(`GET /v1/ping HTTP/1.1\r\n${headers()}Connection: close\r\n\r\n`));
    expect(after.status).toBe(200);
  });

  it('a request on a connection over the cap is answered 429 in the envelope of its route, then closed', async () => {
    const held = await holdConnections(20);
    const body = JSON.stringify({ source: { channel: 'Storefront App', fundraiserId: '10000001' }, remittances: [] });
    const refused = await exchange((s) =>
      s.write(
        `POST /v1/remittances HTTP/1.1\r\n${headers()}Content-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ),
    );
    // A replaced connection is not refused in turn: the refused one was never counted.
    const again = await exchange((s) => s.write(`GET /v1/ping HTTP/1.1\r\n${headers()}\r\n`));
    for (const socket of held) socket.destroy();
    expect(refused.error).toBeNull();
    expectEnvelope(refused, 429, 'FUNDRAISER:RATE_LIMIT');
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toMatchObject({
      method: '/remittance',
      error: { message: 'Too many connections', cause: 'At most 20 connections per client address' },
    });
    expectEnvelope(again, 429, 'FUNDRAISER:RATE_LIMIT');
    expect(JSON.parse(again.body).method).toBe('/ping');
  });
});
