import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/route-context.js';
import { insertPartner } from '../../src/infrastructure/repositories/partners.js';
import { issueCredential } from '../../src/services/issue-credential.js';
import { startTestApp, type Caller, type TestApp } from '../helpers/test-app.js';

// With REDIS_URL, quotas are counted in Redis. Runs where a Redis server is given (CI sets TEST_REDIS_URL).
describe.runIf(process.env.TEST_REDIS_URL)('quotas counted in Redis', () => {
  let first: TestApp;
  let second: App;
  let limited: Caller;
  beforeAll(async () => {
    first = await startTestApp({ env: { REDIS_URL: process.env.TEST_REDIS_URL! } });
    // A second instance on the same database and the same Redis.
    second = await buildApp({ config: first.config, database: first.database, logger: false });
    const partner = await insertPartner(first.db, {
      name: `Redis quota ${randomUUID()}`,
      channels: ['Storefront App'],
      quotaLimit: 3,
      quotaWindowSeconds: 3600,
    });
    limited = await issueCredential(first.db, partner.id, 'sit');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const ping = (app: App) =>
    app.inject({
      method: 'GET',
      url: '/v1/ping',
      headers: { 'x-correlation-id': randomUUID(), client_id: limited.clientId, client_secret: limited.clientSecret },
    });

  it('shares one exact count between instances', async () => {
    expect((await ping(first.app)).headers['x-ratelimit-remaining']).toBe('2');
    expect((await ping(second)).headers['x-ratelimit-remaining']).toBe('1');
    expect((await ping(first.app)).statusCode).toBe(200);
    const refused = await ping(second);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('FUNDRAISER:RATE_LIMIT');
  });
});
