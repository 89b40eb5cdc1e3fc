import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueInTransaction } from '../../src/infrastructure/queue/enqueue.js';
import { RECONCILIATION_QUEUE, WEBHOOK_DELIVERY_QUEUE } from '../../src/infrastructure/queue/queues.js';
import { registerQueueGauges } from '../../src/services/queues/queue-gauges.js';
import { readQueueStats } from '../../src/services/queues/queue-stats.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch } from '../reconciliation/support.js';

/**
 * Depth and age of every background queue, for operators (CLI) and monitoring (/metrics gauges):
 * docs/decisions/0027-background-jobs-on-a-postgres-queue.md.
 */
let t: TestApp;
let run: Cli;

beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database });
  // Two batches waiting (no worker runs in tests), the older one due for 90 s; one delivery attempt due in an hour.
  for (let i = 0; i < 2; i += 1)
    await postBatch(t, [{ bankReferenceId: bankReference(), amount: 1, donationIds: [await donate(t, '1.00')] }]);
  await sql`update pgboss.job set start_after = now() - interval '90 seconds'
            where id = (select id from pgboss.job where name = ${RECONCILIATION_QUEUE} order by created_on limit 1)`.execute(
    t.db,
  );
  await t.db
    .transaction()
    .execute((trx) =>
      enqueueInTransaction(trx, WEBHOOK_DELIVERY_QUEUE, { deliveryId: 'later' }, { startAfterSeconds: 3600 }),
    );
});
afterAll(() => t.close());

describe('queue stats', () => {
  it('every queue is listed with jobs waiting, the age of the oldest, and jobs scheduled for later', async () => {
    const stats = await readQueueStats(t.db);
    const byQueue = Object.fromEntries(stats.map((s) => [s.queue, s]));
    expect(Object.keys(byQueue)).toEqual(
      expect.arrayContaining([RECONCILIATION_QUEUE, WEBHOOK_DELIVERY_QUEUE, 'housekeeping']),
    );
    expect(byQueue[RECONCILIATION_QUEUE]).toMatchObject({ waiting: 2, scheduled: 0 });
    expect(byQueue[RECONCILIATION_QUEUE]!.oldestWaitingSeconds).toBeGreaterThanOrEqual(90);
    expect(byQueue[RECONCILIATION_QUEUE]!.oldestWaitingSeconds).toBeLessThan(600);
    // A job due later is scheduled, not waiting, and gives no age.
    expect(byQueue[WEBHOOK_DELIVERY_QUEUE]).toEqual({
      queue: WEBHOOK_DELIVERY_QUEUE,
      waiting: 0,
      scheduled: 1,
      oldestWaitingSeconds: null,
    });
  });

  it('a job taken by a worker no longer waits', async () => {
    await t.reconcile();
    const stats = await readQueueStats(t.db);
    expect(stats.find((s) => s.queue === RECONCILIATION_QUEUE)).toMatchObject({
      waiting: 0,
      oldestWaitingSeconds: null,
    });
  });
});

describe('fundraiser-admin queues', () => {
  it('prints a table, and the same figures as JSON with --json', async () => {
    await postBatch(t, [{ bankReferenceId: bankReference(), amount: 1, donationIds: [await donate(t, '1.00')] }]);
    const table = await run('queues');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Queue.*Waiting.*Oldest waiting.*Scheduled/);
    expect(table.stdout).toMatch(new RegExp(`${RECONCILIATION_QUEUE}\\s*│\\s*1\\s*│\\s*\\d+\\.\\d s`));
    const json = await ok<{ queue: string; waiting: number; scheduled: number }[]>(run, 'queues');
    expect(json.find((q) => q.queue === RECONCILIATION_QUEUE)).toMatchObject({ waiting: 1 });
    expect(json.find((q) => q.queue === WEBHOOK_DELIVERY_QUEUE)).toMatchObject({ waiting: 0, scheduled: 1 });
  });
});

describe('queue gauges', () => {
  it('a prom-client registry exposes depth, scheduled and oldest age per queue, read at scrape time', async () => {
    const registry = new Registry();
    registerQueueGauges(registry, t.db);
    const text = await registry.metrics();
    expect(text).toContain(`fundraiser_queue_waiting_jobs{queue="${RECONCILIATION_QUEUE}"} 1`);
    expect(text).toContain(`fundraiser_queue_scheduled_jobs{queue="${WEBHOOK_DELIVERY_QUEUE}"} 1`);
    expect(text).toContain(`fundraiser_queue_waiting_jobs{queue="housekeeping"} 0`);
    expect(text).toMatch(
      new RegExp(`fundraiser_queue_oldest_waiting_seconds\\{queue="${RECONCILIATION_QUEUE}"\\} \\d`),
    );
    await t.reconcile();
    expect(await registry.metrics()).toContain(`fundraiser_queue_waiting_jobs{queue="${RECONCILIATION_QUEUE}"} 0`);
  });
});
