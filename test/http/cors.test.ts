import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * CORS_ALLOWED_ORIGINS, for a deployment that ever needs browsers to call the API: the named origins, and only
 * they, get a grant. Without the setting nothing is granted (test/http/security-headers.test.ts, "cross-origin").
 */
const ALLOWED = 'https://shop.example';

describe('CORS_ALLOWED_ORIGINS grants the named origins only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CORS_ALLOWED_ORIGINS: `${ALLOWED}, http://localhost:5173` } });
  }, 120_000);
  afterAll(async () => t?.close());

  const preflight = (origin: string) =>
    t.call('OPTIONS', '/donations', {
      as: null,
      correlationId: null,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'client_id, client_secret, content-type, x-correlation-id',
      },
    });

  it('a preflight from a named origin is granted; from any other, not', async () => {
    const granted = await preflight(ALLOWED);
    expect(granted.statusCode).toBe(204);
    expect(granted.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(granted.headers['access-control-allow-methods']).toBe('GET, POST, DELETE');
    expect(granted.headers.vary).toContain('Origin');
    expect(granted.headers['x-content-type-options']).toBe('nosniff');

    const refused = await preflight('https://evil.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a request from a named origin may read the correlation id; another origin gets nothing', async () => {
    const allowed = await t.get('/ping', { headers: { origin: ALLOWED } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(allowed.headers['access-control-expose-headers'])).toContain('x-correlation-id');
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();

    const other = await t.get('/ping', { headers: { origin: 'https://evil.example' } });
    expect(other.statusCode).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('the checks still apply to a granted origin, and an unknown path is still 404', async () => {
    expect((await t.get('/ping', { as: null, headers: { origin: ALLOWED } })).statusCode).toBe(401);
    const unknown = await t.get('/no/such/route', { headers: { origin: ALLOWED } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
  });
});
