import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('X-Correlation-ID', () => {
  it('is echoed in correlationId and as a response header', async () => {
    const id = '7d3c9a52-2f4e-4a8b-9c1d-0e5f6a7b8c9d';
    const response = await t.get('/fundraisers', {
      correlationId: id,
      query: { channel: 'Storefront App', id: '10000001' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().correlationId).toBe(id);
    expect(response.headers['x-correlation-id']).toBe(id);
  });

  it('is echoed on errors too', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    const response = await t.get('/accounts/nope', { correlationId: id, query: { channel: 'Storefront App' } });
    expect(response.statusCode).toBe(404);
    expect(response.json().correlationId).toBe(id);
  });

  it('when missing: 400 FUNDRAISER:VALIDATION naming the header, with a generated UUID', async () => {
    const response = await t.get('/fundraisers', {
      correlationId: null,
      query: { channel: 'Storefront App', id: '10000001' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toMatchObject({ code: 'FUNDRAISER:VALIDATION', cause: 'header X-Correlation-ID: is required' });
    expect(body.correlationId).toMatch(UUID);
    expect(body.method).toBe('/fundraisers');
  });

  it('when not a UUID: 400 naming the header', async () => {
    const response = await t.get('/ping', { correlationId: 'abc-123' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe('header X-Correlation-ID: must be a UUID');
    expect(response.json().correlationId).toMatch(UUID);
    expect(response.json().correlationId).not.toBe('abc-123');
  });
});

describe('envelopes (section 2)', () => {
  it('success: apiVersion, correlationId, method, data.items — nothing else', async () => {
    const response = await t.get('/fundraisers', { query: { channel: 'Storefront App', id: '10000001' } });
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['apiVersion', 'correlationId', 'data', 'method']);
    expect(body.apiVersion).toBe('1.0.0');
    expect(Object.keys(body.data)).toEqual(['items']);
    expect(response.headers['content-type']).toContain('application/json');
  });

  it('error: code, ISO 8601 UTC timeStamp with milliseconds, message, cause', async () => {
    const response = await t.get('/fundraisers', { query: { channel: 'Storefront App', id: 'unknown' } });
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['apiVersion', 'correlationId', 'error', 'method']);
    expect(body.error.timeStamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.error.code).toBe('FUNDRAISER:VALIDATION');
    expect(body.error.message).toBe('Fundraiser Validation Unsuccessful');
    expect(typeof body.error.cause).toBe('string');
  });

  it('unknown routes: 404 FUNDRAISER:NOT_FOUND with method "/"', async () => {
    const response = await t.get('/no-such-thing');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ method: '/', error: { code: 'FUNDRAISER:NOT_FOUND' } });
  });

  it('routes live under BASE_PATH only', async () => {
    const headers = {
      'x-correlation-id': '7d3c9a52-2f4e-4a8b-9c1d-0e5f6a7b8c9d',
      client_id: t.storefront.clientId,
      client_secret: t.storefront.clientSecret,
    };
    const response = await t.app.inject({ method: 'GET', url: '/ping', headers });
    expect(response.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/v1/ping', headers })).statusCode).toBe(200);
  });

  it("never leaks a stack trace or Fastify's default error body", async () => {
    const responses = await Promise.all([
      t.post('/donations', '{"broken', { headers: { 'content-type': 'application/json' } }),
      t.post('/donations', 'plain', { headers: { 'content-type': 'text/plain' } }),
      t.post('/donations', undefined, { headers: { 'content-type': 'application/json' } }),
      t.get('/fundraisers', { query: { channel: 'Storefront App' } }),
    ]);
    for (const response of responses) {
      const text = response.body;
      expect(text).not.toMatch(/at .+\.(ts|js):\d+/);
      expect(text).not.toContain('"statusCode"');
      expect(response.json().error.code).toMatch(/^FUNDRAISER:/);
    }
  });
});
