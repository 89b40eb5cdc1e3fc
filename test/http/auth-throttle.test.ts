import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    env: { AUTH_FAILURE_LIMIT_PER_CLIENT: '3', AUTH_FAILURE_LIMIT_PER_ADDRESS: '8', AUTH_FAILURE_WINDOW_SECONDS: '60' },
  });
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const fromAddress = (address: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: '/v1/ping',
    headers: { 'x-correlation-id': crypto.randomUUID(), ...headers },
    remoteAddress: address,
  });

describe('failed-authentication throttling (issue 10)', () => {
  it('locks a client id out after AUTH_FAILURE_LIMIT_PER_CLIENT failures, even with the right secret; others unaffected', async () => {
    const wrong = { client_id: t.storefront.clientId, client_secret: 'wrong' };
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await fromAddress(`10.0.0.${i + 1}`, wrong)).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    const right = { client_id: t.storefront.clientId, client_secret: t.storefront.clientSecret };
    const locked = await fromAddress('10.0.0.9', right);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('FUNDRAISER:RATE_LIMIT');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    const other = await fromAddress('10.0.0.9', {
      client_id: t.registration.clientId,
      client_secret: t.registration.clientSecret,
    });
    expect(other.statusCode).toBe(200);
  });

  it('locks a source address out after AUTH_FAILURE_LIMIT_PER_ADDRESS failures over any client ids', async () => {
    for (let i = 0; i < 8; i += 1) {
      const response = await fromAddress('10.9.9.9', { client_id: `sit_guess${i}`, client_secret: 'x' });
      expect(response.statusCode).toBe(401);
    }
    const locked = await fromAddress('10.9.9.9', {
      client_id: t.registration.clientId,
      client_secret: t.registration.clientSecret,
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    const elsewhere = await fromAddress('10.9.9.10', {
      client_id: t.registration.clientId,
      client_secret: t.registration.clientSecret,
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('counts in the shared table, so every instance sees the same totals', async () => {
    const rows = await t.db.selectFrom('auth_failure_counters').select(['key', 'count']).execute();
    const byKey = new Map(rows.map((r) => [r.key, Number(r.count)]));
    expect(byKey.get(`client:${t.storefront.clientId}`)).toBe(3);
    expect(byKey.get('address:10.9.9.9')).toBe(8);
  });
});
