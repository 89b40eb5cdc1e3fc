import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function expectUnauthorized(response: Awaited<ReturnType<TestApp['get']>>) {
  expect(response.statusCode).toBe(401);
  const body = response.json();
  expect(body.error.code).toBe('FUNDRAISER:UNAUTHORIZED');
  return body;
}

describe('authentication (section 5)', () => {
  it('accepts the client_id and client_secret headers', async () => {
    const response = await t.get('/ping');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'Ok' });
  });

  it('answers every credential failure with the same body, never naming the wrong value', async () => {
    const failures = [
      await t.get('/ping', { as: null }),
      await t.get('/ping', { headers: { client_secret: undefined } }),
      await t.get('/ping', { headers: { client_id: undefined } }),
      await t.get('/ping', { headers: { client_id: 'sit_unknown' } }),
      await t.get('/ping', { headers: { client_secret: 'wrong' } }),
    ];
    const bodies = failures.map(expectUnauthorized);
    for (const body of bodies) {
      expect(body.error.cause).toBe('Invalid or missing client credentials');
      expect(body.method).toBe('/ping');
    }
  });

  it('accepts Authorization: Basic naming the same pair, and refuses one naming another', async () => {
    const { clientId, clientSecret } = t.storefront;
    expect((await t.get('/ping', { headers: { authorization: basic(clientId, clientSecret) } })).statusCode).toBe(200);
    expectUnauthorized(await t.get('/ping', { headers: { authorization: basic(clientId, 'other') } }));
    expectUnauthorized(await t.get('/ping', { headers: { authorization: 'Basic !!!' } }));
  });

  it('refuses a channel the partner was not issued, as no access to the operation', async () => {
    const response = await t.get('/fundraisers', { query: { channel: 'Registration Integration', id: '10000001' } });
    const body = expectUnauthorized(response);
    expect(body.error.cause).toContain('Registration Integration');
    const other = await t.get('/fundraisers', {
      as: t.registration,
      query: { channel: 'Registration Integration', id: '10000001' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('checks the correlation id before credentials', async () => {
    const response = await t.get('/ping', { as: null, correlationId: null });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe('header X-Correlation-ID: is required');
  });
});
