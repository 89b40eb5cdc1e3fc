import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp } from '../helpers/test-app.js';
import { usingPostgres } from '../helpers/database.js';
import {
  bankReference,
  createDurableDatabase,
  insertDonations,
  partnerOf,
  postBatch,
  waitUntil,
} from '../reconciliation/support.js';

const WORKER_PROCESS = fileURLToPath(new URL('../reconciliation/fixtures/worker-process.ts', import.meta.url));
const ENTRIES = 200;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

// With the production queue policies (no test overrides): the run holds its batch's row lock until it is killed, and
// the restarted worker retries at once a job whose run is dead, instead of waiting for its expiry and retry delay.
describe.runIf(usingPostgres())('a reconciliation worker killed mid-batch, production policies', () => {
  it('the batch completes within 15 s of the restart, every donation settled once', async () => {
    const durable = await createDurableDatabase();
    cleanups.push(() => durable.dispose());
    const setup = await durable.open();
    const queue = await JobQueue.start(setup);
    const t = await startTestApp({ database: setup, jobQueue: queue });
    const donations = await insertDonations(t.db, await partnerOf(t.db, t.storefront.clientId), ENTRIES, 1250);
    const batchId = await postBatch(
      t,
      donations.map((id) => ({ bankReferenceId: bankReference(), amount: 12.5, donationIds: [id] })),
    );
    await t.close();
    await setup.close();

    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', WORKER_PROCESS], {
      env: { ...process.env, ...durable.env, STOP_AT: 'decided' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
    await new Promise<void>((resolve) =>
      child.stdout!.on('data', (c: Buffer) => c.toString().includes('STOPPED decided') && resolve()),
    );
    // Held mid-batch for longer than the job's expiry: the heartbeat must keep it from being retried meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const restartedAt = Date.now();
    const database = await durable.open();
    cleanups.push(() => database.close());
    const restarted = await JobQueue.start(database, { maintenance: true, maintenanceIntervalSeconds: 2 });
    cleanups.push(() => restarted.stop());
    await new ReconciliationWorker(restarted, database, { concurrency: 2 }).start();
    await waitUntil(
      async () =>
        (
          await database.db
            .selectFrom('remittance_batches')
            .select('status')
            .where('id', '=', batchId)
            .executeTakeFirstOrThrow()
        ).status === 'completed',
      { timeoutMs: 30_000, intervalMs: 100, what: 'the batch to complete' },
    );
    const seconds = (Date.now() - restartedAt) / 1000;
    console.log(`batch completed ${seconds.toFixed(1)} s after the restart`);
    expect(seconds).toBeLessThanOrEqual(15);
    const { rows } = await sql<{ n: number; distinct: number }>`
      select count(*)::int as n, count(distinct donation_id)::int as distinct from donation_settlements
      where batch_id = ${batchId}`.execute(database.db);
    expect(rows[0]).toEqual({ n: ENTRIES, distinct: ENTRIES });
    const batch = await database.db
      .selectFrom('remittance_batches')
      .select('attempts')
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    expect(batch.attempts).toBe(2);
  }, 90_000);
});
