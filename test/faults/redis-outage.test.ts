import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPartner } from '../../src/infrastructure/repositories/partners.js';
import { issueCredential } from '../../src/services/issue-credential.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { startTestApp, type Caller, type TestApp } from '../helpers/test-app.js';

// A proxy in front of the machine's Redis is cut, never Redis itself (others share it).
const redisUrl = process.env.TEST_REDIS_URL;
const REQUESTS = 400;

describe.runIf(redisUrl)('Redis quota store unreachable', () => {
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let t: TestApp;
  let busy: Caller;
  let tiny: Caller;
  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    t = await startTestApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        QUOTA_STORE_RETRY_MS: '500',
        QUOTA_STORE_TIMEOUT_MS: '1000',
      },
    });
    const partner = (name: string, quotaLimit: number) =>
      insertPartner(t.db, {
        name: `${name} ${randomUUID()}`,
        channels: ['Storefront App'],
        quotaLimit,
        quotaWindowSeconds: 3600,
      });
    busy = await issueCredential(t.db, (await partner('Busy', 1_000_000)).id, 'sit');
    tiny = await issueCredential(t.db, (await partner('Tiny', 3)).id, 'sit');
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  /** Requests per second over REQUESTS pings, 20 at a time, and every status seen. */
  async function throughput(as: Caller) {
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 0; i < REQUESTS / 20; i += 1) {
      const wave = await Promise.all(Array.from({ length: 20 }, () => t.get('/ping', { as })));
      statuses.push(...wave.map((r) => r.statusCode));
    }
    return { rate: REQUESTS / ((performance.now() - started) / 1000), statuses };
  }

  it('keeps ≥ 50% of its throughput with no 5xx, enforces quotas per instance, and is back on Redis within seconds', async () => {
    await throughput(busy); // warm-up
    const normal = await throughput(busy);
    expect(t.app.quotaStore.state()).toMatchObject({ backend: 'redis', mode: 'shared' });

    proxy.cut();
    // Opened by ten failed checks in a row, whatever the last second's successes (FAILURES_IN_A_ROW_TO_OPEN). How
    // many requests that takes depends on the quota's leases (a busy partner checks Redis about every 250 ms, not
    // per request) and on the machine's speed: waves of pings until it opens, every one answered meanwhile.
    const transition: number[] = [];
    const cutAt = Date.now();
    while (t.app.quotaStore.state().mode !== 'fallback' && Date.now() - cutAt < 30_000)
      transition.push(...(await throughput(busy)).statuses);
    expect(t.app.quotaStore.state().mode).toBe('fallback');
    const degraded = await throughput(busy);
    console.log(`Redis up: ${normal.rate.toFixed(0)} req/s; Redis cut: ${degraded.rate.toFixed(0)} req/s`);
    expect(transition.length).toBeGreaterThan(0);
    expect([...transition, ...degraded.statuses].every((s) => s === 200)).toBe(true);
    expect(degraded.rate).toBeGreaterThanOrEqual(normal.rate * 0.5);
    expect(t.app.quotaStore.state().mode).toBe('fallback');

    const tinyStatuses = [];
    for (let i = 0; i < 5; i += 1) tinyStatuses.push((await t.get('/ping', { as: tiny })).statusCode);
    expect(tinyStatuses).toEqual([200, 200, 200, 429, 429]);

    proxy.restore();
    const started = Date.now();
    while (t.app.quotaStore.state().mode !== 'shared' && Date.now() - started < 10_000) {
      await t.get('/ping', { as: busy });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(`back on Redis ${Date.now() - started} ms after it returned`);
    expect(t.app.quotaStore.state().mode).toBe('shared');
  }, 60_000);
});
