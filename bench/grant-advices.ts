import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/composition.js';
import type { DB } from '../src/infrastructure/db/schema.js';
import { findRoundByNumber } from '../src/infrastructure/repositories/grant-rounds.js';
import { afterRoundPaid } from '../src/services/grants/rounds/on-paid.js';
import { createBenchDatabase, type BenchDatabase } from './database.js';
import { cpuProfileDir, MONEY_RUNS, until, type MoneyResult, type MoneyRun } from './money-support.js';
import { cpuSeconds } from './process-cpu.js';
import { productionEnv } from './receipts.js';
import { startService } from './service.js';
import { startSmtpSink } from './smtp-sink.js';

export const GRANT_ADVICES = Number(process.env.BENCH_GRANT_ADVICES ?? 2_000);
const DONATIONS_PER_GRANT = 3;
const TIMEOUT_MS = 10 * 60_000;

/**
 * A paid round of GRANT_ADVICES grants (half to clubs registered for GST, so half are RCTIs), each of
 * DONATIONS_PER_GRANT donations, written straight into the tables as a paid round leaves them, with its
 * grant-advices job enqueued as marking it paid does. Written while no service runs (an embedded directory has one
 * owner). The clubs are made once; each run pays a round of its own.
 */
async function payRound(database: BenchDatabase, run: number): Promise<void> {
  const config = loadConfig(
    database.kind === 'postgres' ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir },
  );
  const opened = await openDatabase(config);
  try {
    await opened.db.transaction().execute(async (trx) => {
      if (run === 0) await makeClubs(trx);
      const { rows } = await sql<{ id: string }>`
        insert into grant_rounds (number, cutoff_at, basis, fee_basis_points, minimum_cents, status, drafted_by,
          approved_by, approved_at, paid_by, paid_at)
        values (${run + 1}, now() - interval '1 day', 'settled', 0, 2000, 'paid', 'bench-a', 'bench-b', now(),
          'bench-b', now())
        returning id`.execute(trx);
      const roundId = rows[0]!.id;
      await sql`
        with d as (
          insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
            donor_email, donor_first_name, donor_last_name, address_postal_code, transaction_at, amount_cents,
            request_hash, correlation_id, donor_name_shared)
          select 'BENCH-' || ${run} || '-' || a.member_number || '-' || n, p.id, 'production', true, 'Storefront App',
            a.id, a.member_number, 'donor@example.com', 'Jo', 'Citizen', '2000', now() - interval '2 days', 2000,
            'bench', gen_random_uuid(), n = 1
          from accounts a cross join generate_series(1, ${DONATIONS_PER_GRANT}) n
            cross join (select id from partners order by created_at limit 1) p
          where a.member_number like 'B%'
          returning id, account_id
        ),
        g as (
          insert into grants (round_id, account_id, status, donations_cents, amount_cents, donation_count, bsb,
            account_number, account_name, lodgement_reference)
          select ${roundId}::uuid, a.id, 'paid', ${2000 * DONATIONS_PER_GRANT}, ${2000 * DONATIONS_PER_GRANT},
            ${DONATIONS_PER_GRANT}, '062-000', '12345678', 'BENCH CLUB', 'R' || ${run + 1} || '-' || a.member_number
          from accounts a where a.member_number like 'B%'
          returning id, account_id
        )
        insert into grant_items (donation_id, grant_id, amount_cents)
        select d.id, g.id, 2000 from d join g on g.account_id = d.account_id`.execute(trx);
      // What marking it paid does next: the acquittals opened, the advices' job enqueued.
      const paid = (await findRoundByNumber(trx, run + 1))!;
      await afterRoundPaid(trx, paid, { acquittalDueDays: 90, timeZone: config.FOUNDATION_TIME_ZONE, at: new Date() });
    });
  } finally {
    await opened.close();
  }
}

async function makeClubs(trx: Kysely<DB>) {
  await sql`
    with a as (
      insert into accounts (member_number, name, abn, gst_registered)
      select 'B' || lpad(i::text, 7, '0'), 'Bench Club ' || i, case when i % 2 = 0 then '51824753556' end, i % 2 = 0
      from generate_series(1, ${GRANT_ADVICES}) i
      returning id
    )
    insert into club_contacts (account_id, role, name, email)
    select id, 'finance', 'Treasurer', 'treasurer-' || id || '@club.test' from a`.execute(trx);
}

/**
 * Remittance advices end to end on a production-like service: each run pays a round of GRANT_ADVICES grants (its
 * job enqueued while the service is stopped), then starts the service and times from its start (start-up included)
 * until the local SMTP server has accepted every advice, each with its PDF: the job's issue (RCTI numbers, outbox
 * rows), PDF rendering in the PDF thread and SMTP delivery by the mail-delivery worker.
 */
export async function measureGrantAdvices(
  context: { repoRoot: string; workDir: string },
  progress: (message: string) => void,
): Promise<MoneyResult> {
  const workDir = join(context.workDir, 'grant-advices');
  mkdirSync(workDir, { recursive: true });
  const database = await createBenchDatabase(process.env.DATABASE_URL, workDir);
  const sink = await startSmtpSink();
  const runs: MoneyRun[] = [];
  try {
    // The first start migrates, seeds the demo partner and creates the queues.
    await (await startService({ ...context, workDir, database, logName: 'service-advices-seed.log' })).stop();
    for (let i = 0; i < MONEY_RUNS; i += 1) {
      await payRound(database, i);
      const before = sink.counts();
      const started = performance.now();
      const service = await startService({
        ...context,
        workDir,
        database,
        credentials: { clientId: '-', clientSecret: '-' },
        env: productionEnv(sink.url),
        logName: `service-advices-${i + 1}.log`,
        cpuProfileDir,
      });
      const readyMs = performance.now() - started;
      const cpuBefore = cpuSeconds(service.pid);
      try {
        await until(
          async () => sink.counts().accepted - before.accepted,
          (n) => n >= GRANT_ADVICES,
          `${GRANT_ADVICES} advices at the SMTP server`,
          TIMEOUT_MS,
          100,
        );
      } finally {
        const ms = performance.now() - started;
        const cpuAfter = cpuSeconds(service.pid);
        const peak = await service.stop();
        const after = sink.counts();
        const delivered = after.accepted - before.accepted;
        const withPdf = after.withPdf - before.withPdf;
        runs.push({
          ms,
          perSecond: GRANT_ADVICES / (ms / 1000),
          cpuUsPerItem: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / GRANT_ADVICES,
          peakRssMb: peak,
          errors: Math.abs(delivered - GRANT_ADVICES) + (GRANT_ADVICES - Math.min(withPdf, GRANT_ADVICES)),
          detail: `service ready after ${Math.round(readyMs)} ms (counted); ${delivered} messages, ${withPdf} with a PDF`,
        });
        progress(
          `  grant advices run ${i + 1}: ${Math.round(ms)} ms, ${runs.at(-1)!.perSecond!.toFixed(0)}/s; ${runs.at(-1)!.detail}`,
        );
      }
    }
    return { runs, error: null };
  } catch (err) {
    return { runs, error: (err as Error).message };
  } finally {
    await sink.close();
    await database.drop();
  }
}
