import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';
import { expectNoInlineCode, expectProtected } from './security-support.js';

/**
 * Every response of every route — each operation of the OpenAPI document, called with and without credentials,
 * the errors the framework and the transport answer, the OpenAPI document, and every HTML page (docs, console,
 * sandbox) — carries the protective headers; HTML pages carry the page policy and no inline code
 * (docs/decisions/0043-protective-headers-and-no-cors.md).
 */
interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; required?: boolean; example?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: { examples?: unknown[] } }> };
}

/** Plausible values for the document's parameters, by name: enough to reach the handler, or a 4xx trying. */
const PLAUSIBLE: Record<string, string> = { channel: 'Storefront App', id: '10000001', batchId: randomUUID() };

function operations(document: { paths: Record<string, Record<string, unknown>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({ ...(operation as Operation), method: method.toUpperCase(), path })),
  );
}

/** The operation's URL with its path parameters filled, and its required query parameters. */
function request(operation: Operation) {
  const value = (p: { name: string; example?: unknown }) => String(p.example ?? PLAUSIBLE[p.name] ?? '1');
  const parameters = operation.parameters ?? [];
  let path = operation.path;
  for (const p of parameters.filter((p) => p.in === 'path'))
    path = path.replace(`{${p.name}}`, encodeURIComponent(value(p)));
  const query = Object.fromEntries(
    parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, value(p)]),
  );
  const example = operation.requestBody?.content?.['application/json']?.schema?.examples?.[0];
  const body = operation.path === '/donations' ? donationBody() : (example ?? {});
  return { path, query, body: operation.method === 'POST' ? body : undefined };
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close());

describe('protective headers on every operation of the OpenAPI document', () => {
  it('with credentials and without, whatever the status', async () => {
    const document = (await t.get('/openapi.json', { as: null })).json();
    const all = operations(document);
    expect(all.length).toBeGreaterThanOrEqual(20);
    const statuses = new Set<number>();
    for (const operation of all) {
      const { path, query, body } = request(operation);
      for (const as of [undefined, null]) {
        const response = await t.call(operation.method as Parameters<typeof t.call>[0], path, { query, body, as });
        expectProtected(
          `${operation.method} ${path} ${as === null ? 'unauthenticated' : 'authenticated'}`,
          response.headers,
        );
        statuses.add(response.statusCode);
      }
    }
    // The sweep reached handlers (2xx) as well as every kind of refusal.
    for (const status of [200, 400, 401, 404]) expect([...statuses]).toContain(status);
  });
});

describe('protective headers on errors the framework and the transport answer', () => {
  const inject = (options: InjectOptions) => t.app.inject(options);

  it('unknown path (404), wrong method (405), no correlation id, wrong media type (415), malformed URL, 413', async () => {
    const cases: [string, LightMyRequestResponse, number][] = [
      ['unknown path', await t.get('/no/such/route'), 404],
      [
        'unknown path outside the base',
        await inject({ url: '/nothing-here', headers: { 'x-correlation-id': randomUUID() } }),
        404,
      ],
      ['wrong method', await t.call('DELETE', '/donations'), 405],
      ['no correlation id', await t.get('/ping', { correlationId: null }), 400],
      ['media type', await t.call('POST', '/donations', { body: 'x', headers: { 'content-type': 'text/xml' } }), 415],
      [
        'malformed JSON',
        await t.call('POST', '/donations', { body: '{', headers: { 'content-type': 'application/json' } }),
        400,
      ],
      ['malformed URL', await inject({ url: '/v1/accounts/%zz' }), 400],
      ['body too large', await t.post('/donations', { pad: 'x'.repeat(t.config.BODY_LIMIT_BYTES) }), 413],
    ];
    for (const [label, response, status] of cases) {
      expect(response.statusCode, label).toBe(status);
      expectProtected(label, response.headers);
    }
  });

  it('an answer Node writes before Fastify sees the request (431), on a real socket', async () => {
    const { status, headers } = await oversizedHeaders(t);
    expect(status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expectProtected('raw 431', headers);
  });
});

/** Sends a request whose headers exceed MAX_HEADER_BYTES on a real socket; Node's parser refuses it before Fastify. */
async function oversizedHeaders(app: TestApp) {
  const address = new URL(await app.app.listen({ port: 0, host: '127.0.0.1' }));
  const raw = await new Promise<string>((resolve, reject) => {
    let received = '';
    const socket = connect(Number(address.port), address.hostname, () =>
      socket.write(`GET /v1/ping HTTP/1.1\r\nHost: x\r\nX-Padding: ${'x'.repeat(app.config.MAX_HEADER_BYTES)}\r\n\r\n`),
    );
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
  const [status, ...lines] = raw.split('\r\n\r\n')[0]!.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]),
  );
  return { status, headers };
}

describe('HTML pages: the page policy, no inline code', () => {
  it('the docs page, its assets and the OpenAPI documents', async () => {
    const page = await t.app.inject({ url: '/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expectProtected('docs page', page.headers, { html: true, styleHashes: true });
    expectNoInlineCode('docs page', page.body);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      // Served by us: a relative URL, never another origin.
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const response = await t.app.inject({ url: new URL(asset, 'http://x/v1/docs/').pathname });
      expect(response.statusCode, asset).toBe(200);
      expectProtected(asset, response.headers, { cacheable: true });
    }
    for (const url of ['/v1/openapi.json', '/v1/docs/json'])
      expectProtected(url, (await t.app.inject({ url })).headers);
  });

  it('the sandbox confirmation page, escaped', async () => {
    const created = await t.post('/mandates', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const { mandateId } = created.json().data.items;
    await t.post(`/sandbox/mandates/${mandateId}/confirm`, { bsb: '000-000', accountNumber: '000123456' });
    const url = new URL((await t.get('/mandates', { query: { id: mandateId } })).json().data.items.mandate.url);
    const page = await t.app.inject({ url: url.pathname });
    expect(page.statusCode).toBe(200);
    expectProtected('sandbox page', page.headers, { html: true });
    expectNoInlineCode('sandbox page', page.body);
    const unknown = await t.app.inject({ url: `/v1/sandbox/mandate-confirmations/<script>` });
    expectProtected('sandbox page, unknown id', unknown.headers);
    expect(unknown.body).not.toContain('<script>');
  });

  it('every console page linked from the dashboard, the sign-in page, its error pages and static files', async () => {
    const email = 'sec@foundation.example';
    const password = 'a long enough password';
    await runCli(['operators', 'create', email, '--role', 'admin', '--password-stdin'], {
      database: t.database,
      env: {},
      defaultOperator: () => 'setup',
      readStdin: async () => `${password}\n`,
      stdout: () => undefined,
      stderr: () => undefined,
    });
    const login = await t.app.inject({ url: '/console/login' });
    expectProtected('sign-in page', login.headers, { html: true });
    expectNoInlineCode('sign-in page', login.body);
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/console/login',
      cookies: { console_login_csrf: login.cookies.find((c) => c.name === 'console_login_csrf')!.value },
      payload: new URLSearchParams({
        _csrf: /name="_csrf" value="([^"]+)"/.exec(login.body)![1]!,
        email,
        password,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectProtected('sign-in redirect', signedIn.headers);
    const cookies = { console_session: signedIn.cookies.find((c) => c.name === 'console_session')!.value };
    const dashboard = await t.app.inject({ url: '/console', cookies });
    const links = new Set([...dashboard.body.matchAll(/href="(\/console[^"#?]*)"/g)].map((m) => m[1]!));
    expect(links.size).toBeGreaterThanOrEqual(7);
    for (const link of [...links, '/console/no-such-page']) {
      const response = await t.app.inject({ url: link, cookies });
      const html = String(response.headers['content-type']).startsWith('text/html');
      expectProtected(link, response.headers, { html, cacheable: link.startsWith('/console/static/') });
      if (html) expectNoInlineCode(link, response.body);
    }
    const refused = await t.app.inject({ method: 'POST', url: '/console/logout', cookies });
    expect(refused.statusCode).toBe(403);
    expectProtected('form without its CSRF token', refused.headers, { html: true });
  });
});

describe('cross-origin: the partner API grants nothing', () => {
  it('a preflight from any origin, and a request with an Origin, get no CORS header', async () => {
    const preflight = await t.call('OPTIONS', '/donations', {
      as: null,
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'client_id, client_secret, content-type, x-correlation-id',
      },
    });
    expect(preflight.statusCode).toBe(405);
    expectProtected('preflight', preflight.headers);
    const simple = await t.get('/ping', { headers: { origin: 'https://shop.example' } });
    expect(simple.statusCode).toBe(200);
    expectProtected('request with an Origin', simple.headers);
  });
});

describe('Strict-Transport-Security when TLS is terminated in front (TLS_TERMINATED_UPSTREAM)', () => {
  let secure: TestApp;
  beforeAll(async () => {
    secure = await startTestApp({ env: { TLS_TERMINATED_UPSTREAM: 'true' } });
  }, 120_000);
  afterAll(async () => secure?.close());

  it('on success, refusal, unknown path, malformed URL, the docs page and a raw transport answer', async () => {
    const hsts = { hsts: true };
    expectProtected('ping', (await secure.get('/ping')).headers, hsts);
    expectProtected('unauthenticated', (await secure.get('/ping', { as: null })).headers, hsts);
    expectProtected('404', (await secure.get('/no/such/route')).headers, hsts);
    expectProtected('malformed URL', (await secure.app.inject({ url: '/v1/accounts/%zz' })).headers, hsts);
    expectProtected('docs page', (await secure.app.inject({ url: '/v1/docs/' })).headers, {
      ...hsts,
      html: true,
      styleHashes: true,
    });
    expectProtected('raw 431', (await oversizedHeaders(secure)).headers, hsts);
  });
});
