import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/infrastructure/db/connect.js';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, createDurableDatabase, insertDonations, partnerOf, waitUntil, type Entry } from './support.js';

/*
 * Several workers per instance and several instances on one database. Exactly-once settlement must not depend on
 * how the work is spread: the locks of reconcile-batch and the primary keys decide
 * (docs/decisions/0031-reconciliation-outcomes-and-exactly-once-settlement.md).
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const CONCURRENCY = 4;

interface Instance {
  database: Database;
  queue: JobQueue;
  worker: ReconciliationWorker;
  /** POST /remittances on this instance's own app. */
  post(entries: Entry[]): Promise<string>;
}

/**
 * One or two service instances on one database, each with its own pool, queue, CONCURRENCY workers and app: two on
 * PostgreSQL, one on the embedded database (one process per data directory). Workers poll only every
 * `pollingIntervalSeconds`: anything faster is the wake-ups' doing.
 */
async function startInstances(pollingIntervalSeconds = 1) {
  const durable = await createDurableDatabase();
  cleanups.push(() => durable.dispose());
  const first = await durable.open();
  cleanups.push(() => first.close());
  const listenUrl = durable.env.DATABASE_URL;
  const firstQueue = await JobQueue.start(first, { listenUrl });
  const t = await startTestApp({ database: first, jobQueue: firstQueue });
  cleanups.push(() => t.close());
  const instances: Instance[] = [];
  for (let n = 0; n < (durable.kind === 'postgres' ? 2 : 1); n += 1) {
    const database = n === 0 ? first : await durable.open();
    if (n > 0) cleanups.push(() => database.close());
    const queue = n === 0 ? firstQueue : await JobQueue.start(database, { listenUrl });
    if (n > 0) cleanups.push(() => queue.stop());
    const worker = new ReconciliationWorker(queue, database, { concurrency: CONCURRENCY, pollingIntervalSeconds });
    const app = await buildApp({
      config: t.config,
      database,
      logger: false,
      onRemittanceBatchCommitted: () => worker.wake(),
    });
    cleanups.push(() => app.close());
    instances.push({ database, queue, worker, post: (entries) => postOn(app, t, entries) });
  }
  return { t, instances, kind: durable.kind };
}

async function postOn(app: Awaited<ReturnType<typeof buildApp>>, t: TestApp, remittances: Entry[]) {
  const response = await app.inject({
    method: 'POST',
    url: `${t.config.BASE_PATH}/remittances`,
    headers: {
      'x-correlation-id': crypto.randomUUID(),
      client_id: t.storefront.clientId,
      client_secret: t.storefront.clientSecret,
    },
    payload: { source: { channel: 'Storefront App', fundraiserId: '10000001' }, remittances },
  });
  if (response.statusCode !== 202) throw new Error(`batch refused: ${response.body}`);
  return response.json<{ data: { items: { batchId: string } } }>().data.items.batchId;
}

async function allFinished(db: Database['db'], batchIds: string[]) {
  return waitUntil(
    async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from remittance_batches
        where id = any(${batchIds}::uuid[]) and status like 'completed%'`.execute(db);
      return rows[0]!.n === batchIds.length;
    },
    { timeoutMs: 60_000, intervalMs: 50, what: `${batchIds.length} batches to finish` },
  );
}

describe('reconciliation with several workers and instances', () => {
  it('four batches racing for one donation, on every worker at once: exactly one settles it', async () => {
    const { t, instances } = await startInstances();
    const owner = await partnerOf(t.db, t.storefront.clientId);
    const [contested] = await insertDonations(t.db, owner, 1, 2050);
    // Posted before any worker runs, so that the four are waiting together and taken at once.
    const batchIds: string[] = [];
    for (let i = 0; i < 4; i += 1)
      batchIds.push(
        await instances[i % instances.length]!.post([
          { bankReferenceId: bankReference(), amount: 20.5, donationIds: [contested!] },
        ]),
      );
    for (const instance of instances) await instance.worker.start();
    await allFinished(t.db, batchIds);

    const settled = await t.db
      .selectFrom('donation_settlements')
      .select(['batch_id'])
      .where('donation_reference_id', '=', contested!)
      .execute();
    expect(settled).toHaveLength(1);
    const outcomes = await t.db
      .selectFrom('remittance_entries')
      .select(['batch_id', 'outcome'])
      .where('batch_id', 'in', batchIds)
      .execute();
    expect(outcomes.filter((o) => o.outcome === 'matched').map((o) => o.batch_id)).toEqual([settled[0]!.batch_id]);
    expect(outcomes.filter((o) => o.outcome === 'already_settled')).toHaveLength(3);
  }, 90_000);

  it('120 overlapping batches spread over every worker of every instance: each donation settled exactly once', async () => {
    const { t, instances, kind } = await startInstances();
    const owner = await partnerOf(t.db, t.storefront.clientId);
    const donations = await insertDonations(t.db, owner, 600, 1000);
    // Batch b names donations 5b … 5b+9 (one entry each): every donation but the first five is named by two
    // batches, which race for it on different workers and, on PostgreSQL, different instances.
    const batches = Array.from({ length: 120 }, (_, b) =>
      Array.from({ length: 10 }, (_, e) => donations[(5 * b + e) % donations.length]!).map((id) => ({
        bankReferenceId: bankReference(),
        amount: 10,
        donationIds: [id],
      })),
    );
    for (const instance of instances) await instance.worker.start();
    const batchIds = await Promise.all(batches.map((entries, b) => instances[b % instances.length]!.post(entries)));
    await allFinished(t.db, batchIds);

    const { rows } = await sql<{ settlements: number; distinct: number }>`
      select count(*)::int as settlements, count(distinct donation_id)::int as distinct from donation_settlements
      where batch_id = any(${batchIds}::uuid[])`.execute(t.db);
    expect(rows[0]).toEqual({ settlements: 600, distinct: 600 });
    const outcomes = await sql<{ outcome: string; n: number }>`
      select outcome, count(*)::int as n from remittance_entries where batch_id = any(${batchIds}::uuid[])
      group by outcome order by outcome`.execute(t.db);
    expect(outcomes.rows).toEqual([
      { outcome: 'already_settled', n: 600 },
      { outcome: 'matched', n: 600 },
    ]);
    // The work was really spread: batches ran at the same time (PGlite, one connection, runs one transaction at a time).
    const { rows: overlap } = await sql<{ n: number }>`
      select count(*)::int as n from remittance_batches a join remittance_batches b
        on a.id < b.id and a.started_at < b.completed_at and b.started_at < a.completed_at
      where a.id = any(${batchIds}::uuid[]) and b.id = any(${batchIds}::uuid[])`.execute(t.db);
    if (kind === 'postgres') expect(overlap[0]!.n).toBeGreaterThan(0);
  }, 120_000);

  it('a batch posted on one instance is taken by an idle worker of another at once, not at its next poll a minute later', async () => {
    // Workers that poll only every 60 s: the batch can only be taken that fast if the enqueue woke them.
    const { t, instances, kind } = await startInstances(60);
    const owner = await partnerOf(t.db, t.storefront.clientId);
    const [donation] = await insertDonations(t.db, owner, 1, 500);
    const [working, posting] = kind === 'postgres' ? [instances[0]!, instances[1]!] : [instances[0]!, instances[0]!];
    await working.worker.start();
    // Let the workers' first (empty) poll pass, so that they are asleep when the batch arrives.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const posted = Date.now();
    const batchId = await posting.post([{ bankReferenceId: bankReference(), amount: 5, donationIds: [donation!] }]);
    await allFinished(t.db, [batchId]);
    expect(Date.now() - posted).toBeLessThan(10_000);
  }, 90_000);
});
