import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiBaseUrl } from '../../src/config/index.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch } from '../reconciliation/support.js';

/** Events are written in the transaction of the change: a change that rolls back leaves no event. */
describe('the outbox: events commit with their change or not at all', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('records no remittance.completed for a reconciliation that rolled back, and exactly one after the retry', async () => {
    const donationId = await donate(t, '10.00');
    const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 10, donationIds: [donationId] }]);
    const crashing = new ReconciliationWorker(t.jobQueue, t.database, {
      apiBaseUrl: apiBaseUrl(t.config),
      checkpoint: (stage) =>
        stage === 'decided' ? Promise.reject(new Error('crash before commit')) : Promise.resolve(),
    });
    expect(await crashing.runPending({ now: false })).toBe(1);
    expect((await t.get('/events')).json().data.items.events).toEqual([]);

    await t.reconcile();
    await t.reconcile();
    const { events } = (await t.get('/events')).json().data.items;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'remittance.completed',
      sequence: 1,
      data: { batchId, status: 'completed' },
    });
  });

  it('records no mandate.updated when nothing a partner sees changed', async () => {
    const mandate = await t.post('/mandates', {
      source: { channel: 'Storefront App', fundraiserId: '10000001' },
      fundraiser: { firstName: 'Sam', lastName: 'Coach', email: 'sam.coach@example.com' },
      paymentMethod: 'Direct Debit',
    });
    const mandateId = mandate.json().data.items.mandateId as string;
    // A failing test account leaves the mandate at requires_payment_method: no change, no event.
    await t.post(`/sandbox/mandates/${mandateId}/confirm`, { bsb: '000-000', accountNumber: '111111113' });
    await t.get('/mandates', { query: { id: mandateId } });
    const types = (await t.get('/events')).json().data.items.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(['remittance.completed']);
  });
});
