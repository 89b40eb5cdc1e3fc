import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Caller } from '../helpers/test-app.js';
import { donationBody } from '../helpers/test-app.js';

/**
 * Values a hostile or careless client sends: what PostgreSQL refuses, control characters, impossible dates, huge and
 * odd strings.
 */
const hostileConstants = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udbff\udbff',
  '\rCR',
  'line\nbreak',
  'tab\there',
  '\u0085',
  '\u007f',
  '2024-12-31T23:59:60Z',
  '2024-02-30T10:00:00Z',
  '2023-02-29T00:00:00+10:00',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59+23:59',
  '',
  ' ',
  '-1',
  '0.001',
  '1e309',
  'NaN',
  '99999999999999999999.99',
  "'; drop table donations; --",
  '../../etc/passwd',
  '%00',
  '\u202e\ufeff',
  '😀',
  'Storefront App',
  'x'.repeat(5000),
];

const hostileString = fc.oneof(
  fc.constantFrom(...hostileConstants),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const deepNest = fc.integer({ min: 20, max: 3000 }).map((depth) => {
  let value: unknown = 'leaf\u0000';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { k: value };
  return value;
});

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  deepNest,
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 4 }),
);

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
/** Header values Node itself would accept (it refuses control characters before we see them). */
const headerValue = fc.oneof(printable, fc.constantFrom('', ' ', 'x'.repeat(300), 'null', '%00'));
const pathSegment = fc.oneof(
  fc.constantFrom('%00', '%ED%A0%80', '%', '%zz', '..', '%2F', '%C0%AF', 'a'.repeat(300), 'seti_x', '10000001'),
  hostileString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\uFFFD'))),
);
const queryValue = fc.oneof(
  fc.constantFrom('%00', '%ED%A0%80', '%', 'Storefront%20App', '10000001', '', '%ZZ'),
  hostileString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '\uFFFD'))),
);

interface Route {
  method: string;
  path: (segment: string) => string;
  query?: boolean;
  body?: () => unknown;
}

const routes: Route[] = [
  { method: 'GET', path: () => '/fundraisers', query: true },
  { method: 'POST', path: () => '/donations', body: () => donationBody() },
  {
    method: 'POST',
    path: () => '/mandates',
    body: () => ({
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam@example.com' },
      paymentMethod: 'Direct Debit',
    }),
  },
  { method: 'GET', path: () => '/mandates', query: true },
  {
    method: 'POST',
    path: () => '/remittances',
    body: () => ({
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      remittances: [{ bankReferenceId: `B-${randomUUID()}`, amount: 20.5, donationIds: ['DON-UNKNOWN'] }],
    }),
  },
  { method: 'GET', path: (s) => `/remittances/${s}` },
  { method: 'GET', path: (s) => `/accounts/${s}`, query: true },
  { method: 'GET', path: () => '/health' },
  { method: 'GET', path: () => '/ping' },
  { method: 'GET', path: () => '/info' },
  { method: 'GET', path: () => '/openapi.json' },
  {
    method: 'POST',
    path: (s) => `/sandbox/mandates/${s}/confirm`,
    body: () => ({ bsb: '000-000', accountNumber: '000123456' }),
  },
  { method: 'GET', path: (s) => `/sandbox/mandate-confirmations/${s}` },
  {
    method: 'POST',
    path: () => '/webhook-endpoints',
    body: () => ({ url: 'https://hooks.example.org/fundraising', events: ['*'] }),
  },
  { method: 'GET', path: () => '/webhook-endpoints' },
  { method: 'GET', path: (s) => `/webhook-endpoints/${s}` },
  { method: 'DELETE', path: (s) => `/webhook-endpoints/${s}` },
  { method: 'GET', path: (s) => `/webhook-endpoints/${s}/deliveries` },
  { method: 'POST', path: (s) => `/webhook-endpoints/${s}/rotate-secret`, body: () => ({}) },
  { method: 'POST', path: (s) => `/webhook-endpoints/${s}/test`, body: () => ({}) },
  { method: 'GET', path: () => '/events', query: true },
  { method: 'GET', path: (s) => `/no-such-route/${s}` },
];

/** Every path inside a JSON value down to a few levels (deep hostile values are mutated whole). */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null || prefix.length >= 6) return [prefix];
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...children.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

function mutate(body: unknown, path: (string | number)[], action: 'set' | 'delete' | 'key', value: unknown) {
  if (path.length === 0) return action === 'set' ? value : body;
  let parent = body as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (action === 'delete') delete parent[last];
  else if (action === 'key' && typeof parent[last] === 'object' && parent[last] !== null)
    (parent[last] as Record<string, unknown>)[typeof value === 'string' ? value.slice(0, 50) : typeof value] = value;
  else parent[last] = value;
  return body;
}

const mutation = fc.record({
  pick: fc.nat(),
  action: fc.constantFrom<'set' | 'delete' | 'key'>('set', 'set', 'delete', 'key'),
  value: hostileValue,
});

/** A body: the route's valid body with a few hostile mutations, or bytes that are not the JSON asked for. */
const payload = (route: Route) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => mutatedBody(route, ms)) },
    fc.constantFrom('{', '{"source":', '[]', 'null', '"x"', '{"a":1}{', '\u0000', '{"__proto__":{"x":1}}', ''),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );

function mutatedBody(route: Route, mutations: { pick: number; action: 'set' | 'delete' | 'key'; value: unknown }[]) {
  let body: unknown = route.body?.() ?? {};
  for (const m of mutations) {
    const paths = pathsOf(body);
    body = mutate(body, paths[m.pick % paths.length]!, m.action, m.value);
  }
  return JSON.stringify(body);
}

export interface HostileRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** A request to one of the routes, hostile in its method, path, query, headers or body. */
export function hostileRequest(base: string, callers: { good: Caller; other: Caller }) {
  return fc.integer({ min: 0, max: routes.length - 1 }).chain((index) => {
    const route = routes[index]!;
    return fc
      .record({
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constant(route.method) },
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        ),
        segment: pathSegment,
        query: fc.array(fc.tuple(fc.constantFrom('channel', 'id', 'x', 'channel', 'after', 'limit'), queryValue), {
          maxLength: 3,
        }),
        correlationId: fc.oneof({ weight: 8, arbitrary: fc.constant(randomUUID()) }, headerValue, fc.constant(null)),
        caller: fc.constantFrom('good', 'good', 'good', 'other', 'wrong', 'none'),
        idempotencyKey: fc.oneof(fc.constant(null), fc.constant('fixed-key'), headerValue),
        contentType: fc.constantFrom(
          'application/json',
          'application/json',
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-16',
          'application/jsonx',
        ),
        extraHeader: fc.option(fc.tuple(fc.constantFrom('client_id', 'authorization', 'content-length'), headerValue)),
        body: payload(route),
      })
      .map((r): HostileRequest => {
        const headers: Record<string, string> = {};
        if (r.correlationId !== null) headers['x-correlation-id'] = r.correlationId;
        const caller = r.caller === 'good' ? callers.good : r.caller === 'other' ? callers.other : null;
        if (caller) Object.assign(headers, { client_id: caller.clientId, client_secret: caller.clientSecret });
        if (r.caller === 'wrong') Object.assign(headers, { client_id: callers.good.clientId, client_secret: 'nope' });
        if (r.idempotencyKey !== null) headers['idempotency-key'] = r.idempotencyKey;
        if (r.extraHeader && r.extraHeader[0] !== 'content-length') headers[r.extraHeader[0]] = r.extraHeader[1];
        const query = r.query.map(([k, v]) => `${k}=${v}`).join('&');
        const url = `${base}${route.path(r.segment)}${query ? `?${query}` : route.query ? '?channel=Storefront%20App&id=10000001' : ''}`;
        const hasBody = r.method !== 'GET' && r.method !== 'OPTIONS';
        if (hasBody) headers['content-type'] = r.contentType;
        return { method: r.method, url, headers, ...(hasBody ? { payload: r.body } : {}) };
      });
  });
}
