import { sql } from 'kysely';
import { connectDatabase, type Database } from '../src/infrastructure/db/connect.js';
import { migrate } from '../src/infrastructure/db/migrate.js';
import { deidentifyDue } from '../src/services/privacy/deidentify.js';
import { seedDemoData } from '../src/services/sandbox/demo-data.js';
import type { BenchDatabase } from './database.js';
import type { Target } from './report.js';

/** Donations past their retention loaded for each run (BENCH_DEIDENTIFY). */
export const DEIDENTIFY_DONATIONS = Number(process.env.BENCH_DEIDENTIFY ?? 200_000);
const RUNS = Math.max(1, Number(process.env.BENCH_DEIDENTIFY_RUNS ?? 3));
/** The service's default batch (PRIVACY_BATCH_SIZE). */
const BATCH = Number(process.env.PRIVACY_BATCH_SIZE ?? 5000);

export interface DeidentifyResult {
  runs: { rows: number; ms: number; perSecond: number }[];
  medianPerSecond: number;
  error: string | null;
}

/** Loads `count` identified donations eight years old straight into the table, one statement (HTTP would take long). */
async function loadDonations(database: Database, count: number): Promise<void> {
  await sql`
    insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
      donor_email, donor_first_name, donor_last_name, donor_mobile, address_street, address_city, address_state,
      address_postal_code, address_country, amount_cents, request_hash, correlation_id, created_at)
    select 'DON-BENCH-' || gen_random_uuid()::text, p.id, 'sit', false, 'Storefront App', a.id, '10000001',
      'donor' || i || '@example.com', 'First' || i, 'Last', '0412345678', '1 Main St', 'Sydney', 'NSW', '2000', 'AU',
      1000 + i % 5000, 'bench', gen_random_uuid(), now() - interval '8 years' - make_interval(secs => i)
    from generate_series(1, ${count}) as i,
      (select id from partners order by name limit 1) p,
      (select id from accounts where member_number = '10000001') a`.execute(database.db);
}

/**
 * The de-identification job on the bench's database (the service stopped): each run loads DEIDENTIFY_DONATIONS
 * donations past DONOR_DATA_RETENTION_YEARS and times one run of the job over them, in PRIVACY_BATCH_SIZE batches,
 * checking that every one was de-identified once.
 */
export async function measureDeidentify(
  bench: BenchDatabase,
  progress: (message: string) => void,
): Promise<DeidentifyResult> {
  const database = await connectDatabase(
    bench.kind === 'postgres'
      ? { databaseUrl: bench.url, poolMax: 2, statementTimeoutMs: 600_000 }
      : { dataDir: bench.dataDir },
  );
  const runs: DeidentifyResult['runs'] = [];
  try {
    await migrate(database);
    await seedDemoData(database.db, 'sit', { limit: 1_000_000, windowSeconds: 60 });
    const settings = { donorDataYears: 7, mailBodyDays: 90, timeZone: 'Australia/Sydney', batchSize: BATCH };
    for (let i = 0; i < RUNS; i++) {
      await loadDonations(database, DEIDENTIFY_DONATIONS);
      if (bench.kind === 'postgres') await sql`analyze donations`.execute(database.db);
      const started = performance.now();
      const report = await deidentifyDue(database.db, settings, new Date());
      const ms = performance.now() - started;
      if (report.donations !== DEIDENTIFY_DONATIONS)
        throw new Error(`de-identified ${report.donations} of ${DEIDENTIFY_DONATIONS} donations`);
      runs.push({ rows: report.donations, ms, perSecond: report.donations / (ms / 1000) });
      progress(`  run ${i + 1}: ${report.donations} donations in ${Math.round(ms)} ms`);
    }
    const sorted = runs.map((r) => r.perSecond).sort((a, b) => a - b);
    return { runs, medianPerSecond: sorted[Math.floor(sorted.length / 2)]!, error: null };
  } catch (err) {
    return { runs, medianPerSecond: 0, error: (err as Error).message };
  } finally {
    await database.close();
  }
}

export function deidentifyTarget(kind: 'postgres' | 'embedded', result: DeidentifyResult): Target {
  const perSecond = (n: number) => `${Math.round(n).toLocaleString('en-US')}/s`;
  return {
    description: 'de-identification ≥ 20,000 donations per second on PostgreSQL',
    met: result.error !== null ? false : kind === 'postgres' ? result.medianPerSecond >= 20_000 : null,
    actual:
      result.error ??
      `median ${perSecond(result.medianPerSecond)}, runs ${result.runs.map((r) => perSecond(r.perSecond)).join(', ')}; ` +
        `${DEIDENTIFY_DONATIONS.toLocaleString('en-US')} donations a run, batches of ${BATCH}`,
  };
}
