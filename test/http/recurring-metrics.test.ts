import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, dateIn } from '../../src/domain/calendar-date.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { advance, confirmedMandate, startPlan } from '../recurring/support.js';

/** The debits{status} and recurring_plans{status} gauges of /metrics, counted from the database at each scrape. */
const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
}, 180_000);
afterAll(async () => t?.close());

/** Every sample of one metric, by its status label. */
async function byStatus(metric: string): Promise<Record<string, number>> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  const samples: Record<string, number> = {};
  for (const [, status, value] of response.body.matchAll(new RegExp(`^${metric}\\{status="(\\w+)"\\} (\\S+)$`, 'gm')))
    samples[status!] = Number(value);
  return samples;
}

describe('recurring donation gauges', () => {
  it('export every status, at zero before any plan', async () => {
    expect(await byStatus('debits')).toEqual({ scheduled: 0, processing: 0, succeeded: 0, failed: 0, disputed: 0 });
    expect(await byStatus('recurring_plans')).toEqual({ active: 0, past_due: 0, canceled: 0, completed: 0 });
  });

  it('count debits and plans by status, a disputed debit apart from the succeeded ones', async () => {
    const today = dateIn(t.clock.now(), t.config.FOUNDATION_TIME_ZONE);
    const planIds: string[] = [];
    for (const account of ['000123456', '000111116', '000222227']) {
      const mandateId = await confirmedMandate(t, account);
      const plan = await startPlan(t, { mandateId, amount: '10.00', frequency: 'monthly', startDate: today });
      planIds.push(plan.recurringDonationId);
    }
    const mandateId = await confirmedMandate(t, '000123456');
    const oneOff = await t.post(`/mandates/${mandateId}/debits`, {
      amount: '5.00',
      date: addDays(today, 20),
      transaction: { id: 'LATER-1' },
    });
    expect(oneOff.statusCode).toBe(201);
    expect(await byStatus('debits')).toMatchObject({ scheduled: 4, succeeded: 0 });

    // Each plan's first debit is submitted and settles two days later: collected, failed (to be tried again), disputed.
    expect((await advance(t, 'P3D')).statusCode).toBe(200);
    expect(await byStatus('debits')).toEqual({ scheduled: 1, processing: 0, succeeded: 1, failed: 1, disputed: 1 });
    expect(await byStatus('recurring_plans')).toEqual({ active: 3, past_due: 0, canceled: 0, completed: 0 });

    expect((await t.post(`/recurring-donations/${planIds[0]}/cancel`, undefined)).statusCode).toBe(200);
    expect(await byStatus('recurring_plans')).toEqual({ active: 2, past_due: 0, canceled: 1, completed: 0 });
  });
});
