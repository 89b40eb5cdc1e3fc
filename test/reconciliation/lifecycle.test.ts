import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countJobsByState } from '../../src/infrastructure/queue/enqueue.js';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { RECONCILIATION_QUEUE } from '../../src/infrastructure/queue/queues.js';
import { acceptRemittances, RemittanceEntries } from '../../src/services/accept-remittances.js';
import { enqueueReconciliation, enqueueReconciliationJob } from '../../src/services/reconciliation/enqueue.js';
import { retryRemittanceBatch } from '../../src/services/reconciliation/operations.js';
import { reconcileBatch } from '../../src/services/reconciliation/reconcile-batch.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, jobsOf, outcomes, postBatch, report, settlementsOf } from './support.js';

let t: TestApp;
const ops = () => ({ db: t.db, operator: 'test-operator', now: () => new Date() });
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const batch = (remittances: { bankReferenceId: string; amount: number; donationIds: string[] }[]) => ({
  source: { channel: 'Storefront App', fundraiserId: '10000001' },
  remittances,
});

describe('enqueued in the transaction that stores the batch', () => {
  it('every accepted batch has exactly one job; a refused batch has none', async () => {
    const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-A'] }]);
    expect((await jobsOf(t.db, batchId)).map((j) => [j.name, j.state])).toEqual([[RECONCILIATION_QUEUE, 'created']]);
    const refused = await t.post('/remittances', {
      ...batch([{ bankReferenceId: 'B', amount: 1, donationIds: ['D'] }]),
      source: { channel: 'Storefront App', fundraiserId: '10000004' },
    });
    expect(refused.statusCode).toBe(406);
  });

  it('a transaction that rolls back after enqueuing leaves neither batch nor job', async () => {
    const before = await t.db
      .selectFrom('remittance_batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const jobsBefore = await countJobsByState(t.db, RECONCILIATION_QUEUE);
    const principal = {
      partnerId: (
        await t.db
          .selectFrom('credentials')
          .select('partner_id')
          .where('client_id', '=', t.storefront.clientId)
          .executeTakeFirstOrThrow()
      ).partner_id,
      partnerName: 'x',
      clientId: t.storefront.clientId,
      environment: 'sit',
      channels: new Set(['Storefront App']),
      quotaLimit: 1,
      quotaWindowSeconds: 1,
    };
    const failing = acceptRemittances(
      t.db,
      {
        source: { channel: 'Storefront App', fundraiserId: '10000001' },
        entries: (() => {
          const entries = new RemittanceEntries();
          entries.add({ bankReferenceId: bankReference(), amount: 1, donationIds: ['D'] });
          return entries.finish();
        })(),
        requestHash: 'lifecycle',
      },
      { principal, correlationId: crypto.randomUUID(), idempotencyKey: undefined, isLive: false },
      async (trx, batchId) => {
        await enqueueReconciliation(trx, batchId);
        throw new Error('something after the enqueue failed');
      },
    );
    await expect(failing).rejects.toThrow('something after the enqueue failed');
    const after = await t.db
      .selectFrom('remittance_batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await countJobsByState(t.db, RECONCILIATION_QUEUE)).toEqual(jobsBefore);
  });
});

describe('replays of the same batch', () => {
  it('with the same Idempotency-Key: the same batch id, one job, reconciled once', async () => {
    const a = await donate(t, '4.00');
    const body = batch([{ bankReferenceId: bankReference(), amount: 4, donationIds: [a] }]);
    const key = crypto.randomUUID();
    const first = (await t.post('/remittances', body, { headers: { 'idempotency-key': key } })).json().data.items
      .batchId;
    const again = (await t.post('/remittances', body, { headers: { 'idempotency-key': key } })).json().data.items
      .batchId;
    expect(again).toBe(first);
    expect(await jobsOf(t.db, first)).toHaveLength(1);
    await t.reconcile();
    expect((await jobsOf(t.db, first)).map((j) => j.state)).toEqual(['completed']);
    expect(outcomes(await report(t, first))).toEqual(['matched']);
  });

  it('posted again without a key: a second batch whose identical entries are no-ops', async () => {
    const a = await donate(t, '5.00');
    const b = await donate(t, '6.00');
    const entries = [
      { bankReferenceId: bankReference(), amount: 5, donationIds: [a] },
      { bankReferenceId: bankReference(), amount: 6, donationIds: [b] },
      { bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-GONE'] },
    ];
    const first = await postBatch(t, entries);
    await t.reconcile();
    const settled = await settlementsOf(t.db, [a, b]);
    const second = await postBatch(t, entries);
    await t.reconcile();
    expect(outcomes(await report(t, first))).toEqual(['matched', 'matched', 'unknown_donation']);
    expect(outcomes(await report(t, second))).toEqual(['matched', 'matched', 'unknown_donation']);
    expect(await settlementsOf(t.db, [a, b])).toEqual(settled);
  });

  it('running the job of a completed batch again changes nothing', async () => {
    const a = await donate(t, '7.00');
    const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 7, donationIds: [a] }]);
    await t.reconcile();
    const reportBefore = await report(t, batchId);
    const settled = await settlementsOf(t.db, [a]);
    expect(await reconcileBatch(t.db, batchId)).toEqual({ batchId, ran: false, reason: 'not pending' });
    await expect(retryRemittanceBatch(ops(), batchId)).rejects.toThrow('already reconciled (completed)');
    // A duplicate job (say, the job of a run that outlived its expiry, retried) finds nothing to do.
    await t.db.transaction().execute((trx) => enqueueReconciliationJob(trx, batchId));
    await t.reconcile();
    expect((await jobsOf(t.db, batchId)).map((j) => j.state)).toEqual(['completed', 'completed']);
    expect(await report(t, batchId)).toEqual(reportBefore);
    expect(await settlementsOf(t.db, [a])).toEqual(settled);
    const row = await t.db
      .selectFrom('remittance_batches')
      .select(['attempts'])
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    expect(row.attempts).toBe(1);
  });
});

describe('failures: retried with backoff, then dead-lettered for an operator', () => {
  it('retries a failing run after a delay that grows, ends in the dead-letter queue, and an operator retry completes it', async () => {
    await t.reconcile(); // nothing else waiting: the counts below are this batch's
    const a = await donate(t, '8.00');
    const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 8, donationIds: [a] }]);
    const failing = new ReconciliationWorker(t.jobQueue, t.database, {
      checkpoint: async (stage) => {
        if (stage === 'decided') throw new Error('simulated failure after every write, before the commit');
      },
    });

    // First attempt, honouring the retry delay: the job waits in `retry`, seconds in the future.
    expect(await failing.runPending({ now: false })).toBe(1);
    const [afterFirst] = await jobsOf(t.db, batchId);
    expect(afterFirst).toMatchObject({ state: 'retry', retry_count: 0 });
    expect(new Date(afterFirst!.start_after).getTime()).toBeGreaterThan(Date.now() + 3000);
    expect(await failing.runPending({ now: false })).toBe(0);

    // The remaining attempts, without waiting: 1 + 5 retries, then the dead-letter queue.
    expect(await failing.runPending()).toBe(5);
    const jobs = await jobsOf(t.db, batchId);
    expect(jobs.map((j) => [j.name, j.state])).toEqual([
      [RECONCILIATION_QUEUE, 'failed'],
      [`${RECONCILIATION_QUEUE}-dead-letter`, 'completed'],
    ]);
    const stuck = await t.db
      .selectFrom('remittance_batches')
      .selectAll()
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    expect(stuck).toMatchObject({
      status: 'processing',
      attempts: 6,
      last_error: 'simulated failure after every write, before the commit',
    });
    expect(stuck.dead_lettered_at).not.toBeNull();
    expect(await settlementsOf(t.db, [a])).toEqual([]);
    expect((await report(t, batchId)).counts.pending).toBe(1);

    await retryRemittanceBatch(ops(), batchId);
    await t.reconcile();
    const done = await t.db
      .selectFrom('remittance_batches')
      .selectAll()
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'completed', attempts: 7, dead_lettered_at: null });
    expect(await settlementsOf(t.db, [a])).toHaveLength(1);
  });
});

describe('the polling worker', () => {
  it('picks up a new batch on its own', async () => {
    const queue = await JobQueue.start(t.database);
    try {
      await new ReconciliationWorker(queue, t.database, { pollingIntervalSeconds: 0.5 }).start();
      const a = await donate(t, '9.00');
      const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 9, donationIds: [a] }]);
      const { waitUntil } = await import('./support.js');
      const done = await waitUntil(
        async () => {
          const r = await report(t, batchId);
          return r.status === 'completed' && r;
        },
        { what: 'the worker to reconcile the batch' },
      );
      expect(outcomes(done)).toEqual(['matched']);
    } finally {
      await queue.stop();
    }
  });
});
