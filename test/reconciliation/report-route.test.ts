import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch, report } from './support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('GET /remittances/{batchId}: the out-of-band report', () => {
  it('shows the posting partner its batch: accepted with pending entries, then completed with every outcome', async () => {
    const a = await donate(t, '10.00');
    const ref = bankReference();
    const batchId = await postBatch(t, [
      { bankReferenceId: ref, amount: 10, donationIds: [a] },
      { bankReferenceId: bankReference(), amount: 2.5, donationIds: ['DON-UNKNOWN'] },
    ]);
    const correlationId = randomUUID();
    const before = await t.get(`/remittances/${batchId}`, { correlationId });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ apiVersion: '1.0.0', correlationId, method: '/remittance' });
    expect(before.json().data.items).toMatchObject({
      batchId,
      status: 'accepted',
      channel: 'Storefront App',
      fundraiserId: '10000001',
      totalAmount: 12.5,
      startedAt: null,
      completedAt: null,
      counts: { entries: 2, pending: 2, matched: 0, exceptions: 0 },
      entries: [
        { index: 0, bankReferenceId: ref, amount: 10, donationIds: [a], outcome: null, detail: null },
        { index: 1, amount: 2.5, donationIds: ['DON-UNKNOWN'], outcome: null, detail: null },
      ],
    });

    await t.reconcile();
    const after = await report(t, batchId);
    expect(after).toMatchObject({
      status: 'completed_with_exceptions',
      counts: { entries: 2, pending: 0, matched: 1, exceptions: 1 },
    });
    expect(after.entries.map((e) => [e.outcome, e.detail])).toEqual([
      ['matched', 'Settled 1 donation, 10.00 AUD.'],
      ['unknown_donation', 'Unknown donation ids: DON-UNKNOWN.'],
    ]);
  });

  it('shows processing while a run is under way', async () => {
    const a = await donate(t, '3.00');
    const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 3, donationIds: [a] }]);
    const seen: string[] = [];
    const worker = new ReconciliationWorker(t.jobQueue, t.database, {
      checkpoint: async (stage) => {
        if (stage === 'processing') seen.push((await report(t, batchId)).status);
      },
    });
    await worker.runPending();
    expect(seen).toEqual(['processing']);
    expect((await report(t, batchId)).status).toBe('completed');
  });

  it("answers another partner's batch exactly like an unknown id: 404 FUNDRAISER:NOT_FOUND", async () => {
    const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-X'] }]);
    const theirs = await t.get(`/remittances/${batchId}`, { as: t.registration });
    const unknown = await t.get(`/remittances/${randomUUID()}`);
    for (const response of [theirs, unknown]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        method: '/remittance',
        error: { code: 'FUNDRAISER:NOT_FOUND', message: 'Resource not found' },
      });
    }
    expect(theirs.json().error.cause).toBe(`No remittance batch with id ${batchId}`);
  });

  it('refuses an id that is not a UUID with 400 FUNDRAISER:VALIDATION, and needs credentials', async () => {
    const bad = await t.get('/remittances/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ method: '/remittance', error: { code: 'FUNDRAISER:VALIDATION' } });
    expect(bad.json().error.cause).toContain('batchId');
    expect((await t.get(`/remittances/${randomUUID()}`, { as: null })).statusCode).toBe(401);
  });
});
