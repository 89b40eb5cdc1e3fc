/**
 * Measures the import and matching of a 100,000-line bank statement against 100,000 open remittance entries
 * (docs/bank-statements.md, "Performance"). Not a test (vitest ignores it); run it by hand:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx test/bank-statements/measure-100k.ts
 *   npx tsx test/bank-statements/measure-100k.ts                                   # embedded PGlite, temp data dir
 *
 * The statement is a CSV export in the commbank layout: a credit for all but 200 entries naming its bank reference
 * in the description, 100 credits nobody remitted (suggestions are looked for) and 100 debits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { bankMatchingSettings, loadConfig } from '../../src/config/index.js';
import { connectDatabase, redactUrl, type Database } from '../../src/infrastructure/db/connect.js';
import { migrate } from '../../src/infrastructure/db/migrate.js';
import { insertRemittanceBatch } from '../../src/infrastructure/repositories/remittances.js';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { seedDemoData } from '../../src/services/sandbox/demo-data.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { insertDonations, partnerOf } from '../reconciliation/support.js';

const LINES = Number(process.env.LINES ?? 100_000);
const ENTRIES = LINES;
const OTHERS = 100;

async function main() {
  const target = await freshDatabase(process.env.DATABASE_URL);
  const { database } = target;
  try {
    await migrate(database);
    const [storefront] = (await seedDemoData(database.db, 'sit', { limit: 1000, windowSeconds: 60 }))!;
    const owner = await partnerOf(database.db, storefront!.clientId);
    const donations = await insertDonations(database.db, owner, ENTRIES, 2500);
    const references = donations.map((_, i) => `STMT-${String(i).padStart(6, '0')}`);
    const account = await database.db
      .selectFrom('accounts')
      .select('id')
      .where('member_number', '=', '10000001')
      .executeTakeFirstOrThrow();
    const batchId = await database.db.transaction().execute((trx) =>
      insertRemittanceBatch(trx, {
        partnerId: owner.partnerId,
        environment: owner.environment,
        channel: 'Storefront App',
        fundraiserId: '10000001',
        accountId: account.id,
        requestHash: 'measure',
        correlationId: crypto.randomUUID(),
        entries: references.map((ref, i) => ({
          bankReferenceId: ref,
          amountCents: 2500,
          donationIds: [donations[i]!],
        })),
      }),
    );
    // As reconciliation leaves them (its receipts need the job queue, which this measurement does not start).
    await sql`update remittance_entries set outcome = 'matched' where batch_id = ${batchId}::uuid`.execute(database.db);

    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: config.FOUNDATION_TIME_ZONE }).format(new Date());
    const date = today.split('-').reverse().join('/');
    const paying = LINES - 2 * OTHERS;
    const lines = references.slice(0, paying).map((ref) => `${date},+25.00,"DIRECT CREDIT STOREFRONT APP ${ref}"`);
    for (let i = 0; i < OTHERS; i += 1)
      lines.push(`${date},+${(5 + i / 100).toFixed(2)},"DIRECT CREDIT J CITIZEN ${i}"`);
    for (let i = 0; i < OTHERS; i += 1) lines.push(`${date},-${(1 + i / 100).toFixed(2)},"ACCOUNT FEE ${i}"`);
    const content = `${lines.join('\n')}\n`;

    const ops = { db: database.db, operator: 'measure', now: () => new Date() };
    const started = performance.now();
    const result = await importStatement(ops, bankMatchingSettings(config), {
      fileName: 'measure.csv',
      content,
      preset: 'commbank',
      account: 'MEASURE',
    });
    const ms = Math.round(performance.now() - started);
    console.log(`database: ${target.location}`);
    console.log(`statement: ${LINES.toLocaleString('en-US')} lines; ${ENTRIES.toLocaleString('en-US')} open entries`);
    console.log(`import and matching: ${ms} ms`);
    console.log(
      `lines added ${result.linesAdded}; matched automatically ${result.automatic}; suggestions ${result.suggestions}; ` +
        `credit lines unmatched ${result.unmatchedLines}`,
    );
  } finally {
    await database.close();
    await target.drop();
  }
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
    database: await connectDatabase({ databaseUrl: scratch.url, statementTimeoutMs: 120_000 }),
    location: `PostgreSQL, fresh database on ${redactUrl(serverUrl)}`,
    drop: async () => {
      if (process.env.MEASURE_KEEP_DATABASE) console.log(`kept database ${scratch.name}`);
      else await scratch.drop();
    },
  };
}

await main();
