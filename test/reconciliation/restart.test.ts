import { describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp } from '../helpers/test-app.js';
import { bankReference, createDurableDatabase, donate, jobsOf, waitUntil, postBatch } from './support.js';

describe('a restart with batches still queued', () => {
  it('reconciles, after the restart, the batches accepted before it', async () => {
    const durable = await createDurableDatabase();
    try {
      // Before the restart: batches accepted (202) while no worker runs, then the process stops.
      const before = await durable.open();
      const t = await startTestApp({ database: before });
      const a = await donate(t, '11.00');
      const b = await donate(t, '22.00');
      const first = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 11, donationIds: [a] }]);
      const second = await postBatch(t, [
        { bankReferenceId: bankReference(), amount: 22, donationIds: [b] },
        { bankReferenceId: bankReference(), amount: 11, donationIds: [a] },
      ]);
      await t.close();
      await before.close();

      // After: a new process opens the same database and starts its worker, as the server does.
      const after = await durable.open();
      const queue = await JobQueue.start(after);
      try {
        expect((await jobsOf(after.db, first)).map((j) => j.state)).toEqual(['created']);
        await new ReconciliationWorker(queue, after, { pollingIntervalSeconds: 0.5 }).start();
        const statusOf = async (id: string) =>
          (
            await after.db
              .selectFrom('remittance_batches')
              .select('status')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).status;
        await waitUntil(
          async () =>
            (await statusOf(first)) === 'completed' && (await statusOf(second)) === 'completed_with_exceptions',
          { what: 'both queued batches to be reconciled' },
        );
        const outcomes = await after.db
          .selectFrom('remittance_entries')
          .select(['batch_id', 'position', 'outcome'])
          .where('batch_id', 'in', [first, second])
          .execute();
        const byBatch = (id: string) =>
          outcomes
            .filter((o) => o.batch_id === id)
            .sort((x, y) => x.position - y.position)
            .map((o) => o.outcome);
        expect(byBatch(first)).toEqual(['matched']);
        expect(byBatch(second)).toEqual(['matched', 'already_settled']);
      } finally {
        await queue.stop();
        await after.close();
      }
    } finally {
      await durable.dispose();
    }
  });
});
