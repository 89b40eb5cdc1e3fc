import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
  // Another app in the same process, without METRICS_TOKEN.
  other = await startTestApp();
});
afterAll(async () => {
  await t.close();
  await other.close();
});

const scrape = (app: TestApp, authorization?: string) =>
  app.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

const sample = (text: string, line: RegExp) =>
  Number(
    text
      .split('\n')
      .find((l) => line.test(l))
      ?.split(' ')
      .at(-1),
  );

describe('GET /metrics', () => {
  it('refuses a missing or wrong bearer token with 401', async () => {
    expect((await scrape(t)).statusCode).toBe(401);
    const wrong = await scrape(t, 'Bearer not-the-token');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('FUNDRAISER:UNAUTHORIZED');
  });

  it('answers the Prometheus text format with the documented metrics', async () => {
    await t.post('/donations', donationBody());
    await t.get('/ping', { as: { clientId: 'nobody', clientSecret: 'wrong' } });
    await t.post('/mandates', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const response = await scrape(t, `Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(sample(text, /^http_requests_total\{route="\/v1\/donations",method="POST",status="200"\}/)).toBe(1);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0.005",route="\/v1\/donations"/m);
    expect(sample(text, /^partner_requests_rejected_total\{reason="authentication"\}/)).toBe(1);
    expect(sample(text, /^donations_recorded_total /)).toBe(1);
    expect(sample(text, /^mandates\{status="requires_payment_method"\}/)).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^# TYPE remittance_entries gauge/m);
    // Every background queue's depth and the age of its oldest waiting job
    // (docs/decisions/0027-background-jobs-on-a-postgres-queue.md).
    expect(text).toMatch(/^queue_waiting_jobs\{queue="remittance-reconciliation"\} \d+/m);
    expect(text).toMatch(/^queue_oldest_waiting_seconds\{queue="housekeeping"\} /m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('keeps each app’s counters apart (a registry per app, not prom-client’s global one)', async () => {
    const before = sample((await scrape(t, `Bearer ${TOKEN}`)).body, /^donations_recorded_total /);
    expect((await other.post('/donations', donationBody())).statusCode).toBe(200);
    const after = sample((await scrape(t, `Bearer ${TOKEN}`)).body, /^donations_recorded_total /);
    expect(after).toBe(before);
  });

  it('is absent (404) when METRICS_TOKEN is not set', async () => {
    expect((await scrape(other, `Bearer ${TOKEN}`)).statusCode).toBe(404);
  });
});
