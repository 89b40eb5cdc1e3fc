import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/http/logging.js';
import { RequestLogPruneWorker } from '../../src/services/request-log/prune-worker.js';
import { RequestLogWriter } from '../../src/services/request-log/writer.js';
import { requestDetail, searchRequests } from '../../src/services/portal/request-log.js';
import { partnerUsage } from '../../src/services/portal/usage.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { METRICS_TOKEN } });
});
afterAll(async () => t?.close());

const partnerOf = async (clientId: string) =>
  (
    await t.db
      .selectFrom('credentials')
      .select('partner_id')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow()
  ).partner_id;
const flush = () => t.app.requestLog!.flush();
const allRows = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from partner_requests`.execute(t.db)).rows[0]!.n);

describe('the partner request log', () => {
  it('logs a donation with its route, status, credential and bodies, donors’ personal fields masked', async () => {
    const correlationId = randomUUID();
    const sent = await t.post('/donations', donationBody(), { correlationId });
    expect(sent.statusCode).toBe(200);
    await flush();

    const partnerId = await partnerOf(t.storefront.clientId);
    const { requests } = await searchRequests(t.db, partnerId, { correlationId });
    expect(requests).toHaveLength(1);
    const [logged] = requests;
    expect(logged).toMatchObject({
      method: 'POST',
      route: `${t.config.BASE_PATH}/donations`,
      status: 200,
      errorCode: null,
      clientId: t.storefront.clientId,
      environment: t.config.APP_ENV,
      correlationId,
    });
    expect(logged!.latencyMs).toBeGreaterThan(0);

    const detail = await requestDetail(t.db, partnerId, logged!.id);
    const request = JSON.parse(detail!.requestBody!) as ReturnType<typeof donationBody>;
    expect(request.donor).toMatchObject({
      email: '[masked]',
      firstName: '[masked]',
      lastName: '[masked]',
      mobile: '[masked]',
      billingAddress: '[masked]',
    });
    expect(request.source.channel).toBe('Storefront App');
    expect(request.transaction.amount).toBe('20.50');
    expect(JSON.parse(detail!.responseBody!)).toMatchObject({ correlationId });
    for (const body of [detail!.requestBody!, detail!.responseBody!])
      for (const personal of ['jo.citizen@example.com', 'Citizen', '0412', '1 Main St', '+61412'])
        expect(body).not.toContain(personal);
  });

  it('logs a refusal with its error code and cause', async () => {
    const correlationId = randomUUID();
    const invalid = { ...donationBody(), transaction: { id: 'x', amount: '-1' } };
    expect((await t.post('/donations', invalid, { correlationId })).statusCode).toBe(400);
    await flush();
    const partnerId = await partnerOf(t.storefront.clientId);
    const [logged] = (await searchRequests(t.db, partnerId, { correlationId })).requests;
    expect(logged).toMatchObject({ status: 400, errorCode: 'FUNDRAISER:VALIDATION' });
    expect(logged!.errorCause).toContain('transaction.amount');
  });

  it('logs a failed authentication of a known client id under its partner, and nothing of an unknown one', async () => {
    const known = randomUUID();
    const wrongSecret = { clientId: t.storefront.clientId, clientSecret: 'not-the-secret' };
    expect((await t.get('/ping', { as: wrongSecret, correlationId: known })).statusCode).toBe(401);
    await flush();
    const before = await allRows();
    const unknown = randomUUID();
    expect(
      (await t.get('/ping', { as: { clientId: 'nobody', clientSecret: 'x' }, correlationId: unknown })).statusCode,
    ).toBe(401);
    expect((await t.get('/ping', { as: null, correlationId: randomUUID() })).statusCode).toBe(401);
    await flush();
    const partnerId = await partnerOf(t.storefront.clientId);
    const [logged] = (await searchRequests(t.db, partnerId, { correlationId: known })).requests;
    expect(logged).toMatchObject({
      status: 401,
      errorCode: 'FUNDRAISER:UNAUTHORIZED',
      clientId: t.storefront.clientId,
    });
    expect(await allRows()).toBe(before);
  });

  it('does not log the console, the probes, the metrics or the OpenAPI document', async () => {
    await flush();
    const before = await allRows();
    await t.app.inject({ method: 'GET', url: '/livez' });
    await t.app.inject({ method: 'GET', url: '/readyz' });
    await t.app.inject({ method: 'GET', url: '/console/sign-in' });
    await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    await t.app.inject({ method: 'GET', url: `${t.config.BASE_PATH}/openapi.json` });
    await flush();
    expect(await allRows()).toBe(before);
  });

  it('shows a partner only its own requests, and another’s as unknown', async () => {
    const correlationId = randomUUID();
    const refused = { ...donationBody({ channel: 'Registration Integration' }), transaction: { amount: '-1' } };
    expect((await t.post('/donations', refused, { as: t.registration, correlationId })).statusCode).toBe(400);
    await flush();
    const storefront = await partnerOf(t.storefront.clientId);
    const registration = await partnerOf(t.registration.clientId);
    expect((await searchRequests(t.db, storefront, { correlationId })).requests).toEqual([]);
    const [theirs] = (await searchRequests(t.db, registration, { correlationId })).requests;
    expect(theirs).toBeDefined();
    expect(await requestDetail(t.db, storefront, theirs!.id)).toBeNull();
    expect(await requestDetail(t.db, storefront, '999999999')).toBeNull();
    const ours = (await searchRequests(t.db, storefront, { limit: 200 })).requests;
    expect(ours.length).toBeGreaterThan(0);
    for (const row of ours) expect(row.clientId).toBe(t.storefront.clientId);
  });

  it('searches by status class and route, newest first, a page at a time', async () => {
    const partnerId = await partnerOf(t.storefront.clientId);
    for (let i = 0; i < 3; i++) expect((await t.post('/donations', donationBody())).statusCode).toBe(200);
    await flush();
    const route = `${t.config.BASE_PATH}/donations`;
    const first = await searchRequests(t.db, partnerId, { route, status: '2xx', limit: 2 });
    expect(first.requests).toHaveLength(2);
    expect(first.next).not.toBeNull();
    const second = await searchRequests(t.db, partnerId, { route, status: '2xx', limit: 2, after: first.next! });
    const seen = [...first.requests, ...second.requests];
    expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
    for (const row of seen) expect(row).toMatchObject({ route, status: 200 });
    const times = seen.map((r) => r.at.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const fourxx = await searchRequests(t.db, partnerId, { status: '4xx' });
    expect(fourxx.requests.map((r) => r.status).every((s) => s >= 400 && s < 500)).toBe(true);
    expect(fourxx.requests.length).toBeGreaterThanOrEqual(2);
    await expect(searchRequests(t.db, partnerId, { status: '4x' })).rejects.toThrow(/status/);
    await expect(searchRequests(t.db, partnerId, { after: 'garbage' })).rejects.toThrow(/after/);
  });

  it('prunes the requests older than PARTNER_REQUEST_LOG_DAYS, and only those', async () => {
    await flush();
    const partnerId = await partnerOf(t.storefront.clientId);
    const { requests } = await searchRequests(t.db, partnerId, { limit: 3 });
    const old = requests.slice(0, 2).map((r) => r.id);
    await sql`update partner_requests set at = now() - interval '15 days' where id in (${sql.join(old)})`.execute(t.db);
    const before = await allRows();
    const pruned = await new RequestLogPruneWorker(t.jobQueue, t.database, 14, () => new Date()).run();
    expect(pruned).toBe(2);
    expect(await allRows()).toBe(before - 2);
    expect(await requestDetail(t.db, partnerId, old[0]!)).toBeNull();
    expect(await requestDetail(t.db, partnerId, requests[2]!.id)).not.toBeNull();
  });
});

describe('usage', () => {
  it('counts every request, a successful read without a row of its own', async () => {
    await flush();
    const partnerId = await partnerOf(t.registration.clientId);
    await sql`delete from partner_requests where partner_id = ${partnerId}`.execute(t.db);
    await sql`delete from partner_request_counts where partner_id = ${partnerId}`.execute(t.db);
    const as = t.registration;
    const read = randomUUID();
    expect((await t.get('/ping', { as, correlationId: read })).statusCode).toBe(200);
    expect((await t.get('/ping', { as: { clientId: as.clientId, clientSecret: 'wrong' } })).statusCode).toBe(401);
    await flush();
    expect((await searchRequests(t.db, partnerId, { correlationId: read })).requests).toEqual([]);
    expect((await searchRequests(t.db, partnerId, {})).requests.map((r) => r.status)).toEqual([401]);
    const counts = await t.db
      .selectFrom('partner_request_counts')
      .select(['method', 'route', 'status', 'requests', 'environment'])
      .where('partner_id', '=', partnerId)
      .orderBy('status')
      .execute();
    expect(counts).toEqual([
      { method: 'GET', route: `${t.config.BASE_PATH}/ping`, status: 200, requests: 1, environment: t.config.APP_ENV },
      { method: 'GET', route: `${t.config.BASE_PATH}/ping`, status: 401, requests: 1, environment: t.config.APP_ENV },
    ]);
  });

  it('gives a successful read a row of its own when PARTNER_REQUEST_LOG_SUCCESSFUL_READS is on', async () => {
    const partnerId = await partnerOf(t.registration.clientId);
    const writer = new RequestLogWriter(t.db, {
      capacity: 100,
      bodyChars: 1000,
      successfulReads: true,
      onDropped: () => {},
      warn: () => {},
    });
    const correlationId = randomUUID();
    writer.record({
      partnerId,
      clientId: t.registration.clientId,
      environment: t.config.APP_ENV,
      at: new Date(),
      method: 'GET',
      route: `${t.config.BASE_PATH}/ping`,
      status: 200,
      latencyUs: 900,
      correlationId,
      requestBody: undefined,
      responsePayload: '{"correlationId":"x"}',
    });
    await writer.close();
    const [row] = (await searchRequests(t.db, partnerId, { correlationId })).requests;
    expect(row).toMatchObject({ method: 'GET', status: 200 });
    expect((await requestDetail(t.db, partnerId, row!.id))!.responseBody).toBe('{"correlationId":"x"}');
  });

  it('counts requests per day, errors per route and the quota window exactly', async () => {
    await flush();
    const partnerId = await partnerOf(t.registration.clientId);
    await sql`delete from partner_request_counts where partner_id = ${partnerId}`.execute(t.db);
    await t.db.updateTable('partners').set({ quota_window_seconds: 86_400 }).where('id', '=', partnerId).execute();
    const as = t.registration;
    const invalid = { ...donationBody({ channel: 'Registration Integration' }), transaction: { amount: '-1' } };
    for (let i = 0; i < 3; i++) await t.get('/ping', { as });
    await flush();
    await shiftCounts(partnerId, new Date('2026-12-03T01:00:00Z'), 'status < 400');
    await t.post('/donations', invalid, { as });
    await t.post('/donations', invalid, { as });
    await t.get('/ping', { as: { clientId: as.clientId, clientSecret: 'wrong' } });
    await flush();
    // The successful reads on 3 December, the three failures on 4 December (noon in Sydney), whatever today is.
    await shiftCounts(partnerId, new Date('2026-12-04T01:00:00Z'), 'status >= 400');

    const usage = await partnerUsage(t.db, partnerId, {
      days: 3,
      now: new Date('2026-12-04T02:00:00Z'),
      timeZone: 'Australia/Sydney',
    });
    expect(usage!.days).toEqual([
      { day: '2026-12-02', requests: 0, errors: 0 },
      { day: '2026-12-03', requests: 3, errors: 0 },
      { day: '2026-12-04', requests: 3, errors: 3 },
    ]);
    expect(usage!.errorsByRoute).toEqual([
      { method: 'POST', route: `${t.config.BASE_PATH}/donations`, status: 400, errors: 2 },
      { method: 'GET', route: `${t.config.BASE_PATH}/ping`, status: 401, errors: 1 },
    ]);
    const partner = await t.db.selectFrom('partners').selectAll().where('id', '=', partnerId).executeTakeFirstOrThrow();
    expect(usage!.quota).toEqual({
      used: 3,
      limit: partner.quota_limit,
      windowSeconds: 86_400,
      windowStart: new Date('2026-12-04T00:00:00Z'),
    });
  });

  it('prunes the counts older than PARTNER_REQUEST_LOG_DAYS with the requests', async () => {
    await flush();
    const partnerId = await partnerOf(t.registration.clientId);
    const before = Number(
      (await sql<{ n: string }>`select count(*) as n from partner_request_counts`.execute(t.db)).rows[0]!.n,
    );
    await shiftCounts(partnerId, new Date(Date.now() - 20 * 86_400_000), 'true');
    const shifted = Number(
      (
        await sql<{
          n: string;
        }>`select count(*) as n from partner_request_counts where partner_id = ${partnerId}`.execute(t.db)
      ).rows[0]!.n,
    );
    expect(shifted).toBeGreaterThan(0);
    await new RequestLogPruneWorker(t.jobQueue, t.database, 14, () => new Date()).run();
    const after = Number(
      (await sql<{ n: string }>`select count(*) as n from partner_request_counts`.execute(t.db)).rows[0]!.n,
    );
    expect(after).toBe(before - shifted);
  });
});

/**
 * Moves a partner's counts matching `where` so that the earliest is at `to`, all by the same interval: minutes that
 * were distinct stay distinct, whatever minute the test ran in.
 */
async function shiftCounts(partnerId: string, to: Date, where: string): Promise<void> {
  await sql`
    update partner_request_counts set minute = minute - ((
      select min(minute) from partner_request_counts where partner_id = ${partnerId} and ${sql.raw(where)}
    ) - ${to.toISOString()}::timestamptz)
    where partner_id = ${partnerId} and ${sql.raw(where)}`.execute(t.db);
}

describe('a full buffer', () => {
  it('drops, counts and warns, and keeps what it holds', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const small = await startTestApp({
      env: { PARTNER_REQUEST_LOG_BUFFER: '100', METRICS_TOKEN },
      deps: { logger: createLogger('warn', stream) },
    });
    try {
      const partnerId = await small.db
        .selectFrom('credentials')
        .select('partner_id')
        .where('client_id', '=', small.storefront.clientId)
        .executeTakeFirstOrThrow();
      const writer = small.app.requestLog!;
      // Taken in one turn of the event loop: nothing is written in between.
      for (let i = 0; i < 130; i++)
        writer.record({
          partnerId: partnerId.partner_id,
          clientId: small.storefront.clientId,
          environment: 'sandbox',
          at: new Date(),
          method: 'POST',
          route: '/v1/donations',
          status: 200,
          latencyUs: 100,
          correlationId: randomUUID(),
          requestBody: undefined,
          responsePayload: '{}',
        });
      await writer.flush();
      const rows = await sql<{ n: string }>`select count(*) as n from partner_requests`.execute(small.db);
      expect(Number(rows.rows[0]!.n)).toBe(100);
      const metrics = await small.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(metrics.body).toContain('partner_request_log_dropped_total{reason="full"} 30');
      // One warning for the burst, with the count and nothing of the requests.
      const warnings = lines.filter((line) => line.msg === 'partner request log entries dropped');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ dropped: 1, reason: 'full' });
    } finally {
      await small.close();
    }
  });

  it('is not there when PARTNER_REQUEST_LOG is off', async () => {
    const off = await startTestApp({ env: { PARTNER_REQUEST_LOG: 'false' } });
    try {
      expect(off.app.requestLog).toBeNull();
      expect((await off.post('/donations', donationBody())).statusCode).toBe(200);
      const rows = await sql<{ n: string }>`select count(*) as n from partner_requests`.execute(off.db);
      expect(Number(rows.rows[0]!.n)).toBe(0);
    } finally {
      await off.close();
    }
  });
});
