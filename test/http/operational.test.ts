import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('operational endpoints (sections 4.1–4.3)', () => {
  it('GET /health is a health document, not an envelope', async () => {
    const response = await t.get('/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      serviceHealth: { name: 'fundraiser-partner-api', version: '1.0.0', serviceType: 'http', status: 'UP' },
    });
  });

  it('GET /ping answers Ok', async () => {
    expect((await t.get('/ping')).json()).toEqual({ status: 'Ok' });
  });

  it('GET /info reads name, description and semantic version from the package', async () => {
    const { applicationInfo } = (await t.get('/info')).json();
    expect(applicationInfo.name).toBe('fundraiser-partner-api');
    expect(applicationInfo.description).toMatch(/Fundraiser External Source Integration API/);
    expect(applicationInfo.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each(['/health', '/ping', '/info'])('%s is secured', async (path) => {
    const response = await t.get(path, { as: null });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('FUNDRAISER:UNAUTHORIZED');
  });
});

describe('OpenAPI 3.1 document', () => {
  it('is served at {base}/openapi.json and describes every endpoint of the contract', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe('/v1');
    for (const [path, method] of [
      ['/health', 'get'],
      ['/ping', 'get'],
      ['/info', 'get'],
      ['/fundraisers', 'get'],
      ['/donations', 'post'],
      ['/mandates', 'get'],
      ['/mandates', 'post'],
      ['/remittances', 'post'],
      ['/accounts/{id}', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.components.securitySchemes.clientSecret).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'client_secret',
    });
    const donation = doc.paths['/donations'].post.requestBody.content['application/json'].schema;
    expect(donation.required).toEqual(expect.arrayContaining(['source', 'donor', 'transaction']));
  });
});
