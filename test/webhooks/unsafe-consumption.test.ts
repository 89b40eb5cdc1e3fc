import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../src/infrastructure/webhooks/http-sender.js';

/**
 * OWASP API10 (unsafe consumption of APIs), for the one API we call with data a partner controls: their webhook
 * endpoint. Its answer is untrusted: a redirect is not followed (it could point inside our network), a large body is
 * read but only a short snippet of it kept, a stalled answer times out. (docs/security.md)
 */
const sandbox = { production: false };
const options = { timeoutMs: 500, policy: sandbox, userAgent: 'test' };

let server: http.Server;
let base: string;
let redirectTargetHits = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/redirect') return response.writeHead(307, { location: `${base}/inside` }).end();
    if (request.url === '/inside') {
      redirectTargetHits++;
      return response.writeHead(200).end('reached');
    }
    if (request.url === '/huge') return response.writeHead(500).end('x'.repeat(1_000_000));
    // /stall: headers sent, the body never ends.
    response.writeHead(200);
    response.write('partial');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a partner endpoint’s answer is untrusted', () => {
  it('a redirect is recorded as the answer, never followed', async () => {
    const result = await postJson(`${base}/redirect`, '{}', {}, options);
    expect(result.status).toBe(307);
    expect(redirectTargetHits).toBe(0);
  });

  it('of a 1 MB body, a 512-byte snippet is kept', async () => {
    const result = await postJson(`${base}/huge`, '{}', {}, { ...options, timeoutMs: 10_000 });
    expect(result.status).toBe(500);
    expect(Buffer.byteLength(result.snippet ?? '')).toBeLessThanOrEqual(512);
  });

  it('an answer that never ends times out', async () => {
    const result = await postJson(`${base}/stall`, '{}', {}, options);
    expect(result).toMatchObject({ status: null, error: 'timed out after 500 ms' });
  });
});
