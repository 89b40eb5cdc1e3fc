import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { HOUSEKEEPING_QUEUE, RECONCILIATION_QUEUE } from '../../src/infrastructure/queue/queues.js';
import { HousekeepingWorker } from '../../src/services/housekeeping/worker.js';
import { readQueueStats } from '../../src/services/queues/queue-stats.js';
import { createTestDatabase, usingPostgres } from '../helpers/database.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch, waitUntil } from '../reconciliation/support.js';

/** The tables that only grew are pruned by a scheduled job (docs/decisions/0042-housekeeping-prunes-and-vacuums.md). */
let t: TestApp;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let queue: JobQueue;
let housekeeping: HousekeepingWorker;
const settings = { idempotencyRetentionHours: 24, intervalSeconds: 3600, authFailureWindowSeconds: 300 };

beforeAll(async () => {
  database = await createTestDatabase();
  // Finished jobs leave the job table one second after finishing (the default is a day).
  queue = await JobQueue.start(database, { finishedJobRetentionSeconds: 1 });
  t = await startTestApp({ database, jobQueue: queue });
  housekeeping = new HousekeepingWorker(queue, database, settings);
});
afterAll(async () => {
  await t.close();
  await database.dispose();
});

const ageKey = (key: string, hours: number) =>
  sql`update idempotency_keys set created_at = now() - make_interval(hours => ${hours}) where key = ${key}`.execute(
    t.db,
  );

describe('idempotency keys expire after IDEMPOTENCY_RETENTION_HOURS', () => {
  it('a key past its retention is pruned, a younger one kept; the donation natural key still dedupes after', async () => {
    const [oldKey, youngKey] = [randomUUID(), randomUUID()];
    const body = donationBody();
    const first = await t.post('/donations', body, { headers: { 'idempotency-key': oldKey } });
    expect(first.statusCode).toBe(200);
    await t.post('/donations', donationBody(), { headers: { 'idempotency-key': youngKey } });
    await ageKey(oldKey, 25);
    await ageKey(youngKey, 23);

    const report = await housekeeping.run();
    expect(report.idempotencyKeys).toBe(1);
    const keys = await t.db.selectFrom('idempotency_keys').select('key').execute();
    expect(keys.map((k) => k.key)).toEqual([youngKey]);

    // The expired key is free again: another body under it is a new request, not a 409.
    const reused = await t.post('/donations', donationBody(), { headers: { 'idempotency-key': oldKey } });
    expect(reused.statusCode).toBe(200);
    // The same transaction.id, retried after its key expired: still the first donation, nothing new stored.
    const retried = await t.post('/donations', body);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data.items.donationReferenceId).toBe(first.json().data.items.donationReferenceId);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from donations
      where transaction_id = ${body.transaction.id}`.execute(t.db);
    expect(rows[0]!.n).toBe(1);
    // While it lives, the young key still guards its first body.
    const conflict = await t.post('/donations', donationBody(), { headers: { 'idempotency-key': youngKey } });
    expect(conflict.statusCode).toBe(409);
  });
});

describe('stale counters', () => {
  it('quota windows and failed-authentication windows long over are pruned; current ones kept', async () => {
    const partner = await t.db.selectFrom('partners').select(['id', 'quota_window_seconds']).executeTakeFirstOrThrow();
    // The current window as PostgreSQL's quota store writes it (the embedded database counts in the process), and
    // one that ended long ago. Rows are told apart by their window, not their count: the file's own requests write
    // counters of this partner too, with counts of their own.
    const stale = await sql<{ window_start: Date }>`insert into quota_counters (partner_id, window_start, count) values
              (${partner.id}, now() - make_interval(secs => ${3 * partner.quota_window_seconds}), 7)
              on conflict (partner_id, window_start) do nothing returning window_start`.execute(t.db);
    await sql`insert into quota_counters (partner_id, window_start, count) values (${partner.id}, now(), 1)
              on conflict (partner_id, window_start) do nothing`.execute(t.db);
    // An address's windows go once over; a known client id's (guesses at its secret) stay a week for its page.
    await sql`insert into auth_failure_counters (key, window_start, count) values
              ('address:old', now() - interval '1 hour', 3), ('address:now', now(), 1),
              ('client:last-hour', now() - interval '1 hour', 3), ('client:last-month', now() - interval '8 days', 2)`.execute(
      t.db,
    );

    const report = await housekeeping.run();
    expect(report.quotaCounters).toBe(1);
    expect(report.authFailureCounters).toBe(2);
    const quota = await t.db.selectFrom('quota_counters').select('window_start').execute();
    expect(quota.length).toBeGreaterThan(0);
    const staleStart = stale.rows[0]!.window_start.getTime();
    expect(quota.map((q) => new Date(q.window_start).getTime())).not.toContain(staleStart);
    const auth = await t.db.selectFrom('auth_failure_counters').select('key').execute();
    expect(auth.map((a) => a.key).sort()).toEqual(['address:now', 'client:last-hour']);
  });
});

describe('vacuum and analyse on the embedded database, where autovacuum never runs', () => {
  const tableState = async () =>
    (
      await sql<{ last_vacuum: Date | null; n_dead_tup: number; stats: number }>`
        select s.last_vacuum, s.n_dead_tup::int, (select count(*)::int from pg_stats p
          where p.schemaname = 'public' and p.tablename = 'auth_failure_counters') as stats
        from pg_stat_user_tables s where s.schemaname = 'public' and s.relname = 'auth_failure_counters'`.execute(t.db)
    ).rows[0]!;

  it.skipIf(usingPostgres())(
    'vacuums and analyses a table once its dead rows pass autovacuum’s threshold',
    async () => {
      // 200 windows long over: pruning them leaves 200 dead rows, past 50 + 20% of the table.
      await sql`insert into auth_failure_counters (key, window_start, count)
              select 'address:gone-' || i, now() - interval '1 day', 1 from generate_series(1, 200) i`.execute(t.db);
      const report = await housekeeping.run();
      expect(report.authFailureCounters).toBe(200);
      expect(report.maintenance?.vacuumed).toContain('public.auth_failure_counters');
      const after = await tableState();
      expect(after.last_vacuum).not.toBeNull();
      expect(after.n_dead_tup).toBe(0);
      expect(after.stats).toBeGreaterThan(0); // analysed: the planner has column statistics

      // Nothing changed since: the next run leaves the table alone.
      const again = await housekeeping.run();
      expect(again.maintenance?.vacuumed).not.toContain('public.auth_failure_counters');
      expect(again.maintenance?.analysed).not.toContain('public.auth_failure_counters');
    },
  );

  it.runIf(usingPostgres())('leaves PostgreSQL to its own autovacuum', async () => {
    expect((await housekeeping.run()).maintenance).toBeNull();
  });
});

describe('finished jobs', () => {
  it('leave the job table for the archive once past FINISHED_JOB_RETENTION_HOURS', async () => {
    const batchId = await postBatch(t, [
      { bankReferenceId: bankReference(), amount: 2, donationIds: [await donate(t, '2.00')] },
    ]);
    await t.reconcile();
    const where = sql`name = ${RECONCILIATION_QUEUE} and data->>'batchId' = ${batchId}`;
    const count = async (table: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from pgboss.${sql.raw(table)} where ${where}`.execute(t.db))
        .rows[0]!.n;
    expect(await count('job')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await housekeeping.run();
    expect(await count('job')).toBe(0);
    expect(await count('archive')).toBe(1);
  });
});

describe('the schedule', () => {
  it('runs as a job of its own queue; instances starting together leave one next run scheduled, not one each', async () => {
    await ageKey((await t.db.selectFrom('idempotency_keys').select('key').executeTakeFirstOrThrow()).key, 48);
    const second = new HousekeepingWorker(queue, database, settings);
    await housekeeping.start();
    await second.start();
    // The run due now is taken by one of them; it prunes, then schedules the next an interval later.
    await waitUntil(
      async () => {
        const stats = (await readQueueStats(t.db)).find((s) => s.queue === HOUSEKEEPING_QUEUE)!;
        return stats.waiting === 0 && stats.scheduled === 1;
      },
      { timeoutMs: 20_000, intervalMs: 100, what: 'the run to finish and schedule the next' },
    );
    await waitUntil(async () => (await t.db.selectFrom('idempotency_keys').select('key').execute()).length === 1, {
      timeoutMs: 10_000,
      what: 'the aged key to be pruned by the scheduled run',
    });
    // Both starts may have run it once (the second start finds the first run already taken, so it may enqueue
    // another: pruning twice is harmless); what must not happen is a pile of waiting runs.
    const { rows } = await sql<{ state: string; n: number; due_in: number }>`
      select state::text, count(*)::int as n, min(extract(epoch from start_after - now()))::int as due_in
      from pgboss.job where name = ${HOUSEKEEPING_QUEUE} and state < 'completed' group by state`.execute(t.db);
    expect(rows).toEqual([{ state: 'created', n: 1, due_in: expect.any(Number) }]);
    expect(rows[0]!.due_in).toBeGreaterThan(3500);
  }, 60_000);
});
