/**
 * Measures one reconciliation run of a 10,000-entry batch covering 20,000 donations, which should reconcile in
 * seconds (results in docs/reconciliation.md, "Performance"). Not a test (vitest ignores it); run it by hand:
 *
 *   npx tsx test/reconciliation/measure-10k.ts                                   # embedded PGlite, temp data dir
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx test/reconciliation/measure-10k.ts   # fresh DB on that server
 *
 * It times reconcileBatch() alone (what the worker does with a job), then the same batch posted again (every
 * entry a no-op replay), on a fresh database holding only these rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase, redactUrl, type Database } from '../../src/infrastructure/db/connect.js';
import { migrate } from '../../src/infrastructure/db/migrate.js';
import {
  ENTRIES_PER_STATEMENT,
  insertRemittanceBatch,
  remittanceRows,
} from '../../src/infrastructure/repositories/remittances.js';
import { seedDemoData } from '../../src/services/sandbox/demo-data.js';
import { reconcileBatch } from '../../src/services/reconciliation/reconcile-batch.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { insertDonations, partnerOf } from './support.js';

const ENTRIES = Number(process.env.ENTRIES ?? 10_000);
const DONATIONS_PER_ENTRY = 2;

async function main() {
  const target = await freshDatabase(process.env.DATABASE_URL);
  const database = target.database;
  try {
    await migrate(database);
    const [storefront] = (await seedDemoData(database.db, 'sit', { limit: 1000, windowSeconds: 60 }))!;
    const owner = await partnerOf(database.db, storefront!.clientId);
    const donations = await insertDonations(database.db, owner, ENTRIES * DONATIONS_PER_ENTRY, 1250);
    const entries = Array.from({ length: ENTRIES }, (_, i) => ({
      bankReferenceId: `MEASURE-${String(i).padStart(6, '0')}`,
      amountCents: 1250 * DONATIONS_PER_ENTRY,
      donationIds: donations.slice(i * DONATIONS_PER_ENTRY, (i + 1) * DONATIONS_PER_ENTRY),
    }));
    const accountId = (
      await database.db
        .selectFrom('accounts')
        .select('id')
        .where('member_number', '=', '10000001')
        .executeTakeFirstOrThrow()
    ).id;
    const storeBatch = () =>
      database.db.transaction().execute((trx) =>
        insertRemittanceBatch(trx, {
          partnerId: owner.partnerId,
          environment: owner.environment,
          channel: 'Storefront App',
          fundraiserId: '10000001',
          accountId,
          requestHash: 'measure',
          correlationId: crypto.randomUUID(),
          entryCount: entries.length,
          totalCents: entries.reduce((sum, entry) => sum + entry.amountCents, 0),
          rowChunks: Array.from({ length: Math.ceil(entries.length / ENTRIES_PER_STATEMENT) }, (_, i) =>
            remittanceRows(
              entries.slice(i * ENTRIES_PER_STATEMENT, (i + 1) * ENTRIES_PER_STATEMENT),
              i * ENTRIES_PER_STATEMENT,
            ),
          ),
        }),
      );

    const first = await storeBatch();
    const firstMs = await timed(() => reconcileBatch(database.db, first));
    const again = await storeBatch();
    const replayMs = await timed(() => reconcileBatch(database.db, again));
    const rerunMs = await timed(() => reconcileBatch(database.db, first));
    const settled = await database.db
      .selectFrom('donation_settlements')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const statuses = await database.db
      .selectFrom('remittance_batches')
      .select(['status', 'exception_count'])
      .where('id', 'in', [first, again])
      .execute();

    console.log(`database: ${target.location}`);
    console.log(
      `batch: ${ENTRIES.toLocaleString('en-US')} entries covering ${(ENTRIES * DONATIONS_PER_ENTRY).toLocaleString('en-US')} donations`,
    );
    console.log(`reconcile (every entry matched):        ${firstMs} ms`);
    console.log(`same batch posted again (all no-ops):   ${replayMs} ms`);
    console.log(`job of the completed batch run again:   ${rerunMs} ms`);
    console.log(
      `settlements: ${Number(settled.n)}; statuses: ${statuses.map((s) => `${s.status} (${s.exception_count} exceptions)`).join(', ')}`,
    );
  } finally {
    await database.close();
    await target.drop();
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return Math.round(performance.now() - started);
}

async function freshDatabase(
  serverUrl: string | undefined,
): Promise<{ database: Database; location: string; drop(): Promise<void> }> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'fx-measure-'));
    return {
      database: await connectDatabase({ dataDir }),
      location: `embedded PGlite in ${dataDir}`,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const scratch = await createScratchPostgresDatabase(serverUrl, 'fx_measure');
  return {
    database: await connectDatabase({ databaseUrl: scratch.url, statementTimeoutMs: 60_000 }),
    location: `PostgreSQL, fresh database on ${redactUrl(serverUrl)}`,
    drop: async () => {
      if (process.env.MEASURE_KEEP_DATABASE) console.log(`kept database ${scratch.name}`);
      else await scratch.drop();
    },
  };
}

await main();
