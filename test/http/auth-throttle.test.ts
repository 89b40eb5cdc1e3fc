import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';
import { listPartnerSummaries } from '../../src/infrastructure/repositories/partners.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const LIMIT = 8;
const WARN = 3;
const env = {
  AUTH_FAILURE_WARN_PER_CLIENT: String(WARN),
  AUTH_FAILURE_LIMIT_PER_ADDRESS: String(LIMIT),
  AUTH_FAILURE_WINDOW_SECONDS: '600',
  CREDENTIAL_CACHE_TTL_SECONDS: '0',
};

const METRICS_TOKEN = 'k8Tq2vX9mP4wZ7rL1nB6cF3hJ5dG0sYa';
const lines: Record<string, unknown>[] = [];
let t: TestApp;
let proxied: TestApp;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  t = await startTestApp({ env: { ...env, METRICS_TOKEN }, deps: { logger: createLogger('info', stream) } });
  proxied = await startTestApp({ env: { ...env, TRUST_PROXY: '10.0.0.1, 2001:db8:ffff::/48' } });
}, 180_000);
afterAll(async () => Promise.all([t?.close(), proxied?.close()]), 60_000);

const ping = (app: TestApp, from: string, headers: Record<string, string>) =>
  app.app.inject({
    method: 'GET',
    url: '/v1/ping',
    headers: { 'x-correlation-id': randomUUID(), ...headers },
    remoteAddress: from,
  });

const partnerIdOf = async (app: TestApp) =>
  (
    await app.db
      .selectFrom('credentials')
      .select('partner_id')
      .where('client_id', '=', app.storefront.clientId)
      .executeTakeFirstOrThrow()
  ).partner_id;

const rightFor = (app: TestApp) => ({ client_id: app.storefront.clientId, client_secret: app.storefront.clientSecret });
const wrongFor = (app: TestApp) => ({ client_id: app.storefront.clientId, client_secret: 'not-the-secret' });

describe('failed-authentication throttling', () => {
  it('locks out the address that failed, never the partner: its valid calls from elsewhere answer 200 throughout', async () => {
    const statuses: { attacker: number; partner: number }[] = [];
    for (let i = 0; i < LIMIT + 4; i += 1) {
      const attacker = (await ping(t, '192.0.2.66', wrongFor(t))).statusCode;
      const partner = (await ping(t, '198.51.100.10', rightFor(t))).statusCode;
      statuses.push({ attacker, partner });
    }
    expect(statuses.slice(0, LIMIT).every((s) => s.attacker === 401)).toBe(true);
    expect(statuses.slice(LIMIT).every((s) => s.attacker === 429)).toBe(true);
    expect(statuses.every((s) => s.partner === 200)).toBe(true);

    // The locked address is refused even with the right credential, in the envelope with Retry-After.
    const locked = await ping(t, '192.0.2.66', rightFor(t));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('FUNDRAISER:RATE_LIMIT');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(600);
  });

  it('never locks a client id out, however many addresses guess at it; the guessing is counted and logged once', async () => {
    for (let i = 0; i < 3 * WARN; i += 1) expect((await ping(t, `203.0.113.${i}`, wrongFor(t))).statusCode).toBe(401);
    expect((await ping(t, '203.0.113.200', rightFor(t))).statusCode).toBe(200);

    const warnings = lines.filter(
      (line) => line.client_id === t.storefront.clientId && String(line.msg).startsWith('wrong secrets for a known'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, failures: WARN });
    // The secret never reaches a log line.
    expect(JSON.stringify(lines)).not.toContain(t.storefront.clientSecret);

    const rows = await t.db.selectFrom('auth_failure_counters').select(['key', 'count']).execute();
    const byKey = new Map(rows.map((r) => [r.key, Number(r.count)]));
    // Counted against the client id: the first test's LIMIT guesses (the locked-out ones never reach the check) and this test's 3 × WARN.
    expect(byKey.get(`client:${t.storefront.clientId}`)).toBe(LIMIT + 3 * WARN);
    expect(byKey.get('address:192.0.2.66')).toBe(LIMIT);
    // The partner's page (console and CLI) shows the guesses of the last 24 hours.
    const [partner] = await listPartnerSummaries(t.db, { id: await partnerIdOf(t) }, new Date());
    expect(partner?.failedAuthentications24h).toBe(LIMIT + 3 * WARN);
    // An unknown client id is no one's credential: counted against the address only, never as a key of its own.
    expect((await ping(t, '192.0.2.77', { client_id: 'sit_unknown', client_secret: 'x' })).statusCode).toBe(401);
    const unknown = await t.db
      .selectFrom('auth_failure_counters')
      .select('key')
      .where('key', 'like', '%unknown%')
      .execute();
    expect(unknown).toEqual([]);
  });

  it('counts failures by kind in the metrics, with a fixed set of labels', async () => {
    expect((await ping(t, '192.0.2.90', {})).statusCode).toBe(401);
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const sample = (reason: string) =>
      Number(
        new RegExp(`^partner_authentication_failures_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(
          metrics.body,
        )?.[1],
      );
    expect(sample('wrong-secret')).toBe(LIMIT + 3 * WARN);
    expect(sample('unknown-client')).toBe(1);
    expect(sample('missing')).toBe(1);
    expect(metrics.body).toMatch(/^partner_authentication_lockouts_total 1$/m);
  });

  it('does not count the right secret of a suspended partner, so it is served at once when reactivated', async () => {
    const other = await startTestApp({ env });
    try {
      const partnerId = await partnerIdOf(other);
      await other.db.updateTable('partners').set({ status: 'suspended' }).where('id', '=', partnerId).execute();
      for (let i = 0; i < LIMIT + 2; i += 1)
        expect((await ping(other, '198.51.100.20', rightFor(other))).statusCode).toBe(401);
      await other.db.updateTable('partners').set({ status: 'active' }).where('id', '=', partnerId).execute();
      expect((await ping(other, '198.51.100.20', rightFor(other))).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 client', async () => {
    for (let i = 1; i <= LIMIT; i += 1)
      expect((await ping(t, `2001:db8:1:2::${i.toString(16)}`, wrongFor(t))).statusCode).toBe(401);
    expect((await ping(t, '2001:db8:1:2:ffff::1', rightFor(t))).statusCode).toBe(429);
    expect((await ping(t, '2001:db8:1:3::1', rightFor(t))).statusCode).toBe(200);
    // 192.0.2.66 was locked out by the first test.
    expect((await ping(t, '::ffff:192.0.2.66', rightFor(t))).statusCode).toBe(429);
  });

  it('lifts a lock-out when its window ends, on the application clock', async () => {
    const locked = await ping(t, '192.0.2.66', rightFor(t));
    expect(locked.statusCode).toBe(429);
    t.clock.advance(Number(locked.headers['retry-after']) * 1000);
    expect((await ping(t, '192.0.2.66', rightFor(t))).statusCode).toBe(200);
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  const viaProxy = (client: string, headers: Record<string, string>) =>
    ping(proxied, '10.0.0.1', { ...headers, 'x-forwarded-for': client });

  it('throttles two clients behind one proxy apart', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await viaProxy('203.0.113.5', wrongFor(proxied))).statusCode).toBe(401);
    expect((await viaProxy('203.0.113.5', rightFor(proxied))).statusCode).toBe(429);
    expect((await viaProxy('203.0.113.6', rightFor(proxied))).statusCode).toBe(200);
    // A proxy named by CIDR is trusted too.
    expect(
      (await ping(proxied, '2001:db8:ffff::9', { ...rightFor(proxied), 'x-forwarded-for': '203.0.113.5' })).statusCode,
    ).toBe(429);
  });

  it('ignores X-Forwarded-For from a peer it does not trust', async () => {
    // A forged header cannot borrow a clean address: the untrusted peer is counted as itself…
    for (let i = 0; i < LIMIT; i += 1)
      expect(
        (await ping(proxied, '192.0.2.44', { ...wrongFor(proxied), 'x-forwarded-for': '203.0.113.7' })).statusCode,
      ).toBe(401);
    expect(
      (await ping(proxied, '192.0.2.44', { ...rightFor(proxied), 'x-forwarded-for': '203.0.113.8' })).statusCode,
    ).toBe(429);
    // …and cannot get a client it names locked out.
    expect((await viaProxy('203.0.113.7', rightFor(proxied))).statusCode).toBe(200);
    // Nor escape a lock-out by naming another address.
    expect(
      (await ping(proxied, '192.0.2.44', { ...rightFor(proxied), 'x-forwarded-for': '203.0.113.6' })).statusCode,
    ).toBe(429);
  });
});
