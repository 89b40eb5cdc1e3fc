import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/infrastructure/db/connect.js';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp } from '../helpers/test-app.js';
import {
  bankReference,
  createDurableDatabase,
  FAST_RETRY_POLICIES,
  insertDonations,
  jobsOf,
  partnerOf,
  postBatch,
  waitUntil,
} from './support.js';

const WORKER_PROCESS = fileURLToPath(new URL('./fixtures/worker-process.ts', import.meta.url));
const ENTRIES = 200;

type Durable = Awaited<ReturnType<typeof createDurableDatabase>>;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** A batch of ENTRIES entries of two donations each, all matching, plus one unknown donation: 2 × ENTRIES settlements. */
async function postBigBatch(durable: Durable) {
  const database = await durable.open();
  const jobQueue = await JobQueue.start(database, { policies: FAST_RETRY_POLICIES });
  const t = await startTestApp({ database, jobQueue });
  try {
    const donations = await insertDonations(t.db, await partnerOf(t.db, t.storefront.clientId), ENTRIES * 2, 1250);
    const entries = Array.from({ length: ENTRIES }, (_, i) => ({
      bankReferenceId: bankReference(),
      amount: 25,
      donationIds: [donations[2 * i]!, donations[2 * i + 1]!],
    }));
    entries.push({ bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-NEVER-RECORDED'] });
    return { batchId: await postBatch(t, entries), donations };
  } finally {
    await t.close();
    await database.close();
  }
}

/** Starts a worker process and resolves when one of its runs reaches `stopAt` (then holding, mid-batch). */
async function workerStoppedAt(durable: Durable, stopAt: 'decided' | 'committed'): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_PROCESS], {
    env: { ...process.env, ...durable.env, STOP_AT: stopAt, QUEUE_POLICIES: JSON.stringify(FAST_RETRY_POLICIES) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker process never reached ${stopAt}: ${output}`)), 90_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes(`STOPPED ${stopAt}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`worker process exited (${code}) before ${stopAt}: ${output}`)));
  });
  return child;
}

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * Kept for safety: a dead owner is detected by pid (docs/decisions/0023-postgresql-or-embedded-pglite.md), and an
 * aged lock is stale whatever the host.
 */
function ageDataDirLock(durable: Durable) {
  const lock = durable.dataDir && join(durable.dataDir, '.in-use.lock');
  if (!lock || !existsSync(lock)) return;
  const past = new Date(Date.now() - 60_000);
  utimesSync(lock, past, past);
}

async function state(db: Database['db'], batchId: string) {
  const batch = await db
    .selectFrom('remittance_batches')
    .select(['status', 'attempts', 'exception_count'])
    .where('id', '=', batchId)
    .executeTakeFirstOrThrow();
  const { rows } = await sql<{ n: number; first: Date | null }>`
    select count(*)::int as n, min(settled_at) as first from donation_settlements where batch_id = ${batchId}`.execute(
    db,
  );
  const decided = await db
    .selectFrom('remittance_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('batch_id', '=', batchId)
    .where('outcome', 'is not', null)
    .executeTakeFirstOrThrow();
  const jobs = await jobsOf(db, batchId);
  return {
    ...batch,
    settlements: rows[0]!.n,
    firstSettledAt: rows[0]!.first,
    decidedEntries: Number(decided.n),
    jobs: jobs.map((j) => j.state),
  };
}

/** The restarted service: a queue with maintenance (expiry of the dead run's job) and a polling worker. */
async function restartAndFinish(durable: Durable, batchId: string) {
  const database = await durable.open();
  cleanups.push(() => database.close());
  const queue = await JobQueue.start(database, {
    policies: FAST_RETRY_POLICIES,
    maintenance: true,
    maintenanceIntervalSeconds: 1,
  });
  cleanups.push(() => queue.stop());
  await new ReconciliationWorker(queue, database, { pollingIntervalSeconds: 0.5 }).start();
  await waitUntil(async () => (await state(database.db, batchId)).jobs.at(-1) === 'completed', {
    timeoutMs: 90_000,
    intervalMs: 100,
    what: 'the retried job to complete',
  });
  return database;
}

describe('exactly once: a worker killed in the middle of a batch', { timeout: 180_000 }, () => {
  it('killed with every write made but not committed: nothing is left behind, and the retry settles each donation once', async () => {
    const durable = await createDurableDatabase();
    cleanups.push(() => durable.dispose());
    const { batchId } = await postBigBatch(durable);

    const child = await workerStoppedAt(durable, 'decided');
    await kill(child);

    ageDataDirLock(durable);
    const inspect = await durable.open();
    const afterCrash = await state(inspect.db, batchId);
    await inspect.close();
    expect(afterCrash).toMatchObject({
      status: 'processing',
      attempts: 1,
      settlements: 0,
      decidedEntries: 0,
      jobs: ['active'],
    });

    const database = await restartAndFinish(durable, batchId);
    const final = await state(database.db, batchId);
    expect(final).toMatchObject({
      status: 'completed_with_exceptions',
      attempts: 2,
      exception_count: 1,
      settlements: ENTRIES * 2,
      decidedEntries: ENTRIES + 1,
      jobs: ['completed'],
    });
  });

  it('killed after the commit, before the job was marked done: the retry finds the batch reconciled and changes nothing', async () => {
    const durable = await createDurableDatabase();
    cleanups.push(() => durable.dispose());
    const { batchId } = await postBigBatch(durable);

    const child = await workerStoppedAt(durable, 'committed');
    await kill(child);

    ageDataDirLock(durable);
    const inspect = await durable.open();
    const afterCrash = await state(inspect.db, batchId);
    await inspect.close();
    expect(afterCrash).toMatchObject({
      status: 'completed_with_exceptions',
      attempts: 1,
      settlements: ENTRIES * 2,
      jobs: ['active'],
    });

    const database = await restartAndFinish(durable, batchId);
    const final = await state(database.db, batchId);
    expect(final).toMatchObject({
      status: 'completed_with_exceptions',
      attempts: 1,
      settlements: ENTRIES * 2,
      jobs: ['completed'],
    });
    expect(final.firstSettledAt).toEqual(afterCrash.firstSettledAt);
  });
});
