import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueInTransaction } from '../../src/infrastructure/queue/enqueue.js';
import { insertJobsForRows } from '../../src/infrastructure/queue/enqueue-rows.js';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { MAIL_DELIVERY_QUEUE, WEBHOOK_DELIVERY_QUEUE } from '../../src/infrastructure/queue/queues.js';
import { WAKE_CHANNEL } from '../../src/infrastructure/queue/wakeups.js';
import { createTestDatabase, usingPostgres } from '../helpers/database.js';
import { waitUntil } from '../reconciliation/support.js';

/*
 * On the embedded database every job inserted due at once wakes its queue's workers at commit, whichever path
 * inserted it, and polls only find jobs that became due later
 * (docs/decisions/0054-embedded-workers-woken-in-process.md). PostgreSQL's instances wake each other through LISTEN
 * instead: test/reconciliation/concurrency.test.ts.
 */
describe.skipIf(usingPostgres())('embedded database: workers woken in-process', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let queue: JobQueue;
  const heard: string[] = [];
  let stopListening: () => Promise<void>;

  beforeAll(async () => {
    database = await createTestDatabase();
    queue = await JobQueue.start(database);
    stopListening = await database.listenInProcess!(WAKE_CHANNEL, (payload) => heard.push(payload));
  });
  afterAll(async () => {
    await stopListening();
    await queue.stop();
    await database.dispose();
  });

  /** What was heard by the time the statement that ended a transaction has answered. */
  const heardAfter = async (work: () => Promise<unknown>) => {
    heard.length = 0;
    await work();
    await new Promise((resolve) => setImmediate(resolve));
    return [...heard];
  };

  it('a job due at once is announced when its transaction commits, not before, and once per queue', async () => {
    let beforeCommit: string[] = [];
    const afterCommit = await heardAfter(() =>
      database.db.transaction().execute(async (trx) => {
        await enqueueInTransaction(trx, WEBHOOK_DELIVERY_QUEUE, { deliveryId: 'a' });
        await enqueueInTransaction(trx, WEBHOOK_DELIVERY_QUEUE, { deliveryId: 'b' });
        beforeCommit = [...heard];
      }),
    );
    expect(beforeCommit).toEqual([]);
    expect(afterCommit).toEqual([WEBHOOK_DELIVERY_QUEUE]);
  });

  it('a bulk insert of jobs is announced like a single send', async () => {
    const afterCommit = await heardAfter(() =>
      database.db.transaction().execute((trx) =>
        sql`with rows as (select gen_random_uuid() as id from generate_series(1, 3)),
              jobs as (${insertJobsForRows(MAIL_DELIVERY_QUEUE, 'rows', 'messageId')})
              select count(*) from jobs`.execute(trx),
      ),
    );
    expect(afterCommit).toEqual([MAIL_DELIVERY_QUEUE]);
  });

  it('a job due later, or one rolled back, is not announced', async () => {
    const later = await heardAfter(() =>
      database.db
        .transaction()
        .execute((trx) =>
          enqueueInTransaction(trx, WEBHOOK_DELIVERY_QUEUE, { deliveryId: 'c' }, { startAfterSeconds: 60 }),
        ),
    );
    expect(later).toEqual([]);
    const rolledBack = await heardAfter(() =>
      database.db
        .transaction()
        .execute(async (trx) => {
          await enqueueInTransaction(trx, WEBHOOK_DELIVERY_QUEUE, { deliveryId: 'd' });
          throw new Error('roll back');
        })
        .catch(() => undefined),
    );
    expect(rolledBack).toEqual([]);
  });

  it('an idle worker takes a new job at once, not at its next poll a minute later', async () => {
    await sql`delete from pgboss.job where name = ${WEBHOOK_DELIVERY_QUEUE}`.execute(database.db);
    const taken: string[] = [];
    await queue.work<{ deliveryId: string }>(WEBHOOK_DELIVERY_QUEUE, { pollingIntervalSeconds: 60 }, async (job) => {
      taken.push(job.data.deliveryId);
    });
    // The worker's first (empty) poll has passed: it is asleep for a minute when the job arrives.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const enqueued = Date.now();
    await database.db
      .transaction()
      .execute((trx) => enqueueInTransaction(trx, WEBHOOK_DELIVERY_QUEUE, { deliveryId: 'now' }));
    await waitUntil(async () => taken.includes('now'), { timeoutMs: 30_000, what: 'the job taken' });
    expect(Date.now() - enqueued).toBeLessThan(10_000);
  }, 40_000);

  it('a job due a moment later is still found by a poll', async () => {
    await sql`delete from pgboss.job where name = ${MAIL_DELIVERY_QUEUE}`.execute(database.db);
    const taken: string[] = [];
    // Asked to poll every half second; the queue polls at most every 5 s where it is woken in-process.
    await queue.work<{ id: string }>(MAIL_DELIVERY_QUEUE, { pollingIntervalSeconds: 0.5 }, async (job) => {
      taken.push(job.data.id);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await database.db
      .transaction()
      .execute((trx) => enqueueInTransaction(trx, MAIL_DELIVERY_QUEUE, { id: 'later' }, { startAfterSeconds: 1 }));
    await waitUntil(async () => taken.includes('later'), { timeoutMs: 20_000, what: 'the delayed job taken' });
    expect(taken).toEqual(['later']);
  }, 30_000);
});
