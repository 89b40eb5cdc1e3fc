import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptPolicy } from '../../src/config/receipts.js';
import type { DB } from '../../src/infrastructure/db/schema.js';
import { reconcileBatch } from '../../src/services/reconciliation/reconcile-batch.js';
import { recordEvent } from '../../src/services/webhooks/record-event.js';
import { usingPostgres } from '../helpers/database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, postBatch } from '../reconciliation/support.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, receiptsOf, settle } from './donations.js';
import { LIVE_ENV, uniqueEmail } from './support.js';

/** Waits until another backend waits for a lock that backend `pid` holds. */
async function untilBlockedBy(db: Kysely<DB>, pid: number) {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`.execute(db);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing waited for backend ${pid}`);
}

// Needs two connections at once: the embedded database has one.
describe.runIf(usingPostgres())(
  'settling transactions take the receipt counter before the event sequence (PostgreSQL only)',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: LIVE_ENV, deps: { payments: noPaymentProvider } });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('a reconciliation waiting for the receipt counter holds no row of the partner event sequence', async () => {
      // A first settlement creates the year's counter row, which the blocker below then holds.
      const first = await give(t, '10.00', { email: uniqueEmail('order') });
      await settle(t, [{ id: first, amount: 10 }]);
      const second = await give(t, '10.00', { email: uniqueEmail('order') });
      const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 10, donationIds: [second] }]);
      const owner = await t.db
        .selectFrom('remittance_batches')
        .select(['partner_id as partnerId', 'environment'])
        .where('id', '=', batchId)
        .executeTakeFirstOrThrow();

      let run: ReturnType<typeof reconcileBatch> | undefined;
      let eventSequence = 0;
      await t.db.transaction().execute(async (blocker) => {
        const { rows } = await sql<{ pid: number }>`
          select pg_backend_pid() as pid, (select count(*) from (select 1 from receipt_counters for update) x) as n`.execute(
          blocker,
        );
        run = reconcileBatch(t.db, batchId, undefined, '', undefined, { receipts: receiptPolicy(t.config) });
        await untilBlockedBy(t.db, rows[0]!.pid);
        // Another transaction of the partner records an event while the reconciliation waits: it does not queue
        // behind it (it would, had the reconciliation taken the sequence row first, until the blocker ended).
        await t.db.transaction().execute(async (other) => {
          await sql`set local lock_timeout = '2s'`.execute(other);
          const event = await recordEvent(other, owner, 'webhook.test', { lockOrder: true });
          eventSequence = Number(event.sequence);
        });
      });
      const result = await run!;

      expect(eventSequence).toBeGreaterThan(0);
      expect(result).toMatchObject({ ran: true, status: 'completed' });
      const receipts = await receiptsOf(t, second);
      expect(receipts.map((r) => r.sequence)).toEqual([2]);
      const completed = await t.db
        .selectFrom('webhook_events')
        .select('sequence')
        .where('type', '=', 'remittance.completed')
        .where(sql<boolean>`data->>'batchId' = ${batchId}`)
        .executeTakeFirstOrThrow();
      expect(Number(completed.sequence)).toBeGreaterThan(eventSequence);
    });
  },
);
