import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { migrate } from '../../src/infrastructure/db/migrate.js';
import { JobQueue } from '../../src/infrastructure/queue/job-queue.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { usingPostgres } from '../helpers/database.js';
import { hasPgBouncer, PGBOUNCER, startPgBouncer, type PgBouncer } from '../helpers/pgbouncer.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { postgresTemplate } from '../helpers/templates.js';
import { startServerProcess } from '../helpers/server-process.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch, report, settlementsOf, waitUntil } from '../reconciliation/support.js';

/*
 * The service, its jobs and its CLI through a real PgBouncer in transaction mode, with the one setting
 * DB_POOL_MODE=transaction (docs/decisions/0075-behind-a-transaction-pooler.md).
 */

const BIN = join(import.meta.dirname, '../../bin/fundraiser-admin.js');
const skipped = !usingPostgres()
  ? 'PostgreSQL only: set TEST_DATABASE_URL'
  : !hasPgBouncer
    ? `${PGBOUNCER} is missing: apt-get install pgbouncer (or set PGBOUNCER_PATH)`
    : null;

describe.skipIf(skipped !== null)(
  `behind PgBouncer in transaction mode${skipped ? ` (skipped: ${skipped})` : ''}`,
  () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    let bouncer: PgBouncer;
    let directUrl: string;
    let pooledUrl: string;
    const open = (options: { statementTimeoutMs?: number } = {}) =>
      connectDatabase({ databaseUrl: pooledUrl, poolMode: 'transaction', poolMax: 4, ...options }).then((database) => {
        cleanups.push(() => database.close());
        return database;
      });

    beforeAll(async () => {
      const serverUrl = process.env.TEST_DATABASE_URL!;
      const scratch = await createScratchPostgresDatabase(serverUrl, 'fx_pgbouncer', postgresTemplate());
      cleanups.push(() => scratch.drop());
      bouncer = await startPgBouncer(serverUrl);
      cleanups.push(() => bouncer.stop());
      directUrl = scratch.url;
      pooledUrl = bouncer.url(scratch.url);
    }, 60_000);

    afterAll(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    });

    it('refuses a session-mode connection (the statement timeout as a startup parameter): the pooler is in play', async () => {
      const database = await connectDatabase({ databaseUrl: pooledUrl, poolMax: 1 });
      try {
        await expect(sql`select 1`.execute(database.db)).rejects.toThrow(
          'unsupported startup parameter: statement_timeout',
        );
      } finally {
        await database.close();
      }
    });

    it('takes donations and a remittance batch, and another instance reconciles it, woken without LISTEN', async () => {
      const database = await open();
      await migrate(database);
      const queue = await JobQueue.start(database);
      const t: TestApp = await startTestApp({ database, jobQueue: queue });
      cleanups.push(() => t.close());
      // A second instance, its own pool through the pooler, whose idle worker polls only once a minute: a batch
      // reconciled sooner was found by the wake-up poll.
      const other = await open();
      const otherQueue = await JobQueue.start(other, { wakePollMs: 200 });
      cleanups.push(() => otherQueue.stop());
      const worker = new ReconciliationWorker(otherQueue, other, { pollingIntervalSeconds: 60 });
      cleanups.push(async () => worker.stop());
      await worker.start();
      // The worker's first fetch, at start, found nothing; it is now asleep for its polling interval.
      await new Promise((resolve) => setTimeout(resolve, 500));

      const donations = [await donate(t, '10.00'), await donate(t, '20.00'), await donate(t, '30.00')];
      const batchId = await postBatch(t, [
        { bankReferenceId: bankReference(), amount: 10, donationIds: [donations[0]!] },
        { bankReferenceId: bankReference(), amount: 50, donationIds: [donations[1]!, donations[2]!] },
      ]);
      const done = await waitUntil(
        async () => {
          const r = await report(t, batchId);
          return r.status === 'completed' && r;
        },
        { timeoutMs: 20_000, intervalMs: 100, what: 'the batch to be reconciled by the other instance' },
      );
      expect(done.counts).toMatchObject({ entries: 2, matched: 2, exceptions: 0 });
      const settled = await settlementsOf(t.db, donations);
      expect(settled.map((s) => s.donation_reference_id)).toEqual([...donations].sort());
    }, 60_000);

    it('cancels a statement that outlasts DB_STATEMENT_TIMEOUT_MS, in a transaction or not, and leaks no setting', async () => {
      const database = await open({ statementTimeoutMs: 300 });
      const timedOut = 'canceling statement due to statement timeout';
      // pg_sleep(1) ends before the client's own deadline (the timeout + 1 s): only the server's timeout cancels it.
      await expect(sql`select pg_sleep(1)`.execute(database.db)).rejects.toThrow(timedOut);
      await expect(sql`select pg_sleep(${1})`.execute(database.db)).rejects.toThrow(timedOut);
      await expect(database.db.transaction().execute((trx) => sql`select pg_sleep(${1})`.execute(trx))).rejects.toThrow(
        timedOut,
      );
      await expect(
        database.db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute((trx) => sql`select pg_sleep(1)`.execute(trx)),
      ).rejects.toThrow(timedOut);
      // Shorter statements pass, and the pool's connections are still usable.
      const { rows } = await sql<{ n: number }>`select ${41}::int + 1 as n`.execute(database.db);
      expect(rows).toEqual([{ n: 42 }]);
      // The setting lived in those transactions only: a session the pooler hands out next has the server's default.
      const shown = async (url: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query<{ statement_timeout: string }>('show statement_timeout')).rows[0]!
            .statement_timeout;
        } finally {
          await client.end();
        }
      };
      expect(await shown(pooledUrl)).toBe(await shown(directUrl));
    }, 30_000);

    it('starts the service itself through the pooler: migrations, demo data, the job queue, then ready', async () => {
      const server = startServerProcess({ DATABASE_URL: pooledUrl, DB_POOL_MODE: 'transaction', APP_ENV: 'sit' });
      cleanups.push(() => server.kill());
      const { base } = await server.ready;
      const origin = new URL(base).origin;
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      expect(await server.kill('SIGTERM')).toBe(0);
      expect(server.output().stderr).not.toMatch(/error/i);
    }, 120_000);

    it('runs fundraiser-admin several times in a row through the pooler', async () => {
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: pooledUrl,
        DB_POOL_MODE: 'transaction',
      };
      const admin = async (...argv: string[]) => {
        try {
          const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...argv, '--json'], {
            env,
            timeout: 60_000,
          });
          return JSON.parse(stdout) as unknown;
        } catch (err) {
          const e = err as Error & { stderr?: string };
          throw new Error(`fundraiser-admin ${argv.join(' ')} failed: ${e.stderr ?? e.message}\n${bouncer.log()}`);
        }
      };
      // Each run opens new connections onto the pooler's server sessions, which earlier runs used: a statement
      // prepared by name there would collide ("prepared statement … already exists").
      // The demo partners' channels, loaded by the test above.
      expect(await admin('channels', 'list')).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Storefront App' })]),
      );
      expect(Array.isArray(await admin('remittances', 'list'))).toBe(true);
      expect(await admin('queues')).toEqual(
        expect.arrayContaining([expect.objectContaining({ queue: 'remittance-reconciliation' })]),
      );
    }, 240_000);
  },
);

// Without a pooler (PostgreSQL only): what the rewritten statements answer is what they answered before.
describe.runIf(usingPostgres())('DB_POOL_MODE=transaction on a direct connection', () => {
  it('answers as session mode does: rows, counts, scripts, transactions', async () => {
    const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!, 'fx_poolmode');
    const open = (poolMode: 'session' | 'transaction') =>
      connectDatabase({ databaseUrl: scratch.url, poolMode, poolMax: 2, statementTimeoutMs: 5000 });
    const [session, pooled] = [await open('session'), await open('transaction')];
    try {
      const answers = async (database: Database) => {
        const { db } = database;
        await sql`create table if not exists pool_mode_probe (n integer)`.execute(db);
        await sql`truncate pool_mode_probe`.execute(db);
        const inserted = await sql`insert into pool_mode_probe select generate_series(1, ${3})`.execute(db);
        const rows = (await sql<{ n: number }>`select n from pool_mode_probe order by n`.execute(db)).rows;
        const script = await database.runScript('select 1 as a; select 2 as b');
        const single = await database.runScript('select 3 as c');
        const inTransaction = await db
          .transaction()
          .execute(
            async (trx) =>
              (await sql<{ s: string }>`select current_setting('statement_timeout') as s`.execute(trx)).rows,
          );
        // Outside a transaction too, with and without parameters.
        const alone = [
          (await sql<{ s: string }>`select current_setting('statement_timeout') as s`.execute(db)).rows,
          (await sql<{ s: string }>`select current_setting(${'statement_timeout'}) as s`.execute(db)).rows,
        ];
        return { inserted: inserted.numAffectedRows, rows, script, single, inTransaction, alone };
      };
      const expected = await answers(session);
      expect(expected.inTransaction).toEqual([{ s: '5s' }]);
      expect(expected.alone).toEqual([[{ s: '5s' }], [{ s: '5s' }]]);
      expect(await answers(pooled)).toEqual(expected);
    } finally {
      await session.close();
      await pooled.close();
      await scratch.drop();
    }
  });
});
