import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { ErrorCatalogue } from '../../src/api-errors.js';
import { servers } from '../../src/http/plugins/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Every operation of the document is complete enough for a partner to integrate from it alone. Routes added later
 * are held to it as well: use `envelopeResponse`/`successResponse` and `errorResponses` (src/http/schemas/responses.ts).
 */

interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<
    string,
    { schema?: { $ref?: string; anyOf?: { $ref?: string }[] }; example?: unknown; examples?: object }
  >;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses: Record<string, Response>;
}
interface Document {
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const ENVELOPE = '#/components/schemas/ErrorEnvelope';
const SECURED_STATUSES = ['400', '401', '429', '500', '503'];
const BODY_STATUSES = ['413', '415'];
const codesByStatus = new Map<string, Set<string>>();
for (const { status, code } of Object.values(ErrorCatalogue))
  codesByStatus.set(String(status), (codesByStatus.get(String(status)) ?? new Set()).add(code));

let t: TestApp;
let document: Document;
let operations: { name: string; op: Operation }[];
beforeAll(async () => {
  t = await startTestApp();
  document = (await t.get('/openapi.json', { as: null, correlationId: null })).json();
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );
});
afterAll(async () => t.close());

describe('the OpenAPI document', () => {
  it('gives every operation a unique operationId, a summary, a description and a declared tag', () => {
    const declared = new Set(document.tags.map((tag) => tag.name));
    const problems = operations.flatMap(({ name, op }) => [
      ...(op.operationId ? [] : [`${name}: no operationId`]),
      ...(op.summary ? [] : [`${name}: no summary`]),
      ...(op.description ? [] : [`${name}: no description`]),
      ...(op.tags?.length && op.tags.every((tag) => declared.has(tag)) ? [] : [`${name}: no declared tag`]),
    ]);
    expect(problems).toEqual([]);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.length).toBeGreaterThanOrEqual(10);
  });

  it('documents every error status an operation can answer, with the envelope', () => {
    const problems = operations.flatMap(({ name, op }) => {
      const secured = op.security === undefined || op.security.length > 0;
      const expected = [
        ...(secured ? SECURED_STATUSES : []),
        ...(op.requestBody ? BODY_STATUSES : []),
        ...(op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key') ? ['409'] : []),
      ];
      const missing = expected.filter((status) => !op.responses[status]).map((s) => `${name}: no ${s} response`);
      const notEnvelope = Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .filter(([, response]) => {
          const schema = response.content?.['application/json']?.schema;
          return schema?.$ref !== ENVELOPE && !schema?.anyOf?.some((s) => s.$ref === ENVELOPE);
        })
        .map(([status]) => `${name}: ${status} is not the error envelope`);
      return [...missing, ...notEnvelope];
    });
    expect(problems).toEqual([]);
  });

  it('describes every response with its headers and an example whose code belongs to its status', () => {
    const problems = operations.flatMap(({ name, op }) =>
      Object.entries(op.responses).flatMap(([status, response]) => {
        const where = `${name} ${status}`;
        // JSON everywhere but GET /metrics, whose Prometheus text is documented with its own example.
        const media = response.content?.['application/json'] ?? response.content?.['text/plain'];
        const examples = media?.example
          ? [media.example]
          : Object.values((media?.examples ?? {}) as Record<string, { value: unknown }>).map((e) => e.value);
        const codes = examples.map((e) => (e as { error?: { code?: string } }).error?.code).filter(Boolean);
        return [
          ...(response.description && response.description !== 'Default Response' ? [] : [`${where}: no description`]),
          ...(examples.length > 0 ? [] : [`${where}: no example`]),
          ...(response.headers?.['X-Correlation-ID'] ? [] : [`${where}: no X-Correlation-ID header`]),
          ...((status === '429' || status === '503') && !response.headers?.['Retry-After']
            ? [`${where}: no Retry-After header`]
            : []),
          ...codes.filter((code) => !codesByStatus.get(status)?.has(code!)).map((c) => `${where}: example code ${c}`),
        ];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('declares the credentials as security schemes and the deployment as a server', () => {
    const doc = document as unknown as {
      openapi: string;
      servers: { url: string }[];
      security: Record<string, unknown>[];
      components: { securitySchemes: Record<string, { type: string; name?: string; scheme?: string }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]?.url).toBe('/v1');
    expect(doc.components.securitySchemes.clientId).toMatchObject({ type: 'apiKey', name: 'client_id' });
    expect(doc.components.securitySchemes.clientSecret).toMatchObject({ type: 'apiKey', name: 'client_secret' });
    expect(doc.components.securitySchemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc.security).toContainEqual({ clientId: [], clientSecret: [], basic: [] });
  });

  it('lists this deployment first, then the other environments of OPENAPI_SERVERS', () => {
    const config = loadConfig({
      APP_ENV: 'uat',
      PUBLIC_BASE_URL: 'https://uat.example.org',
      OPENAPI_SERVERS: 'uat=https://ignored.example.org/v1,production=https://api.example.org/v1',
    });
    expect(servers(config)).toEqual([
      { url: 'https://uat.example.org/v1', description: 'uat (this deployment)' },
      { url: 'https://api.example.org/v1', description: 'production' },
    ]);
    expect(() => loadConfig({ OPENAPI_SERVERS: 'prod=api.example.org' })).toThrow(ConfigError);
  });
});

describe('the reference page at {base}/docs', () => {
  it('is public and loads nothing but its own scripts and styles (no CDN, no inline script)', async () => {
    const page = await t.app.inject({ url: '/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(3);
    expect(sources.filter((s) => /^(https?:)?\/\//.test(s))).toEqual([]);
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<\s]/);
    for (const source of sources) {
      const asset = await t.app.inject({ url: new URL(source, 'http://x/v1/docs/').pathname });
      expect(asset.statusCode, source).toBe(200);
    }
    const spec = await t.app.inject({ url: '/v1/docs/json' });
    expect(spec.json().info.title).toBe('Fundraiser External Source Integration API');
  });
});

describe('headers the document promises', () => {
  it('POST /remittances answers 202 with the Location of its report', async () => {
    const donation = await t.post('/donations', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      donor: { email: 'a@example.com', firstName: 'A', lastName: 'B', billingAddress: { postalCode: '2000' } },
      transaction: { amount: '5.00' },
    });
    const posted = await t.post('/remittances', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      remittances: [
        { bankReferenceId: 'L1', amount: 5, donationIds: [donation.json().data.items.donationReferenceId] },
      ],
    });
    expect(posted.statusCode).toBe(202);
    const location = posted.headers.location as string;
    expect(location).toBe(`/v1/remittances/${posted.json().data.items.batchId}`);
    expect((await t.get(location.replace('/v1', ''))).statusCode).toBe(200);
    expect(posted.headers['x-ratelimit-limit']).toBeDefined();
  });
});
