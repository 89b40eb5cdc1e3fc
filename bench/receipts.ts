import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/composition.js';
import { issueCredential } from '../src/services/issue-credential.js';
import { createBenchDatabase, type BenchDatabase } from './database.js';
import {
  batchState,
  cpuProfileDir,
  createDonations,
  MONEY_RUNS,
  postBatch,
  until,
  type MoneyResult,
  type MoneyRun,
} from './money-support.js';
import { cpuSeconds } from './process-cpu.js';
import { startService } from './service.js';
import { startSmtpSink } from './smtp-sink.js';
import { DONATION_AMOUNT, type Credentials } from './workloads.js';

export const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 10_000);
const TIMEOUT_MS = 15 * 60_000;

/**
 * What production needs to issue real receipts and send them (test/receipts/support.ts, LIVE_ENV): the foundation's
 * identity, a sender, an SMTP server; and what it refuses to start without (a security contact, a webhook secret
 * key, Stripe rather than the simulator: nothing here calls Stripe).
 */
export function productionEnv(smtpUrl: string): NodeJS.ProcessEnv {
  return {
    APP_ENV: 'production',
    SEED_DEMO_DATA: 'false',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: `sk_test_${randomBytes(12).toString('hex')}`,
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(12).toString('hex')}`,
    SECURITY_CONTACT: 'mailto:security@foundation.test',
    SECURITY_TXT_EXPIRES: new Date(Date.now() + 300 * 86_400_000).toISOString(),
    FOUNDATION_LEGAL_NAME: 'Australian Sports Foundation Limited',
    FOUNDATION_ABN: '53 004 085 616',
    FOUNDATION_DGR_STATEMENT: 'The foundation is endorsed by the ATO as a deductible gift recipient (item 1).',
    GRANT_ABA_USER_NAME: 'BENCH SPORTS FOUNDATION',
    GRANT_ABA_APCA_USER_ID: '301500',
    GRANT_ABA_BANK: 'CBA',
    GRANT_ABA_BSB: '062-000',
    GRANT_ABA_ACCOUNT: '10203040',
    MAIL_FROM: 'Foundation receipts <receipts@foundation.test>',
    SMTP_URL: smtpUrl,
    // A foundation sending a season's receipts raises it from its default (2): a message waits on SMTP replies and
    // database round trips more than it uses the CPU, so two at a time leave the machine mostly idle.
    MAIL_CONCURRENCY: process.env.MAIL_CONCURRENCY ?? '8',
  };
}

/** A production pair for the demo partner, written while no service runs (an embedded directory has one owner). */
async function productionCredentials(database: BenchDatabase, sandbox: Credentials): Promise<Credentials> {
  const config = loadConfig(
    database.kind === 'postgres' ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir },
  );
  const opened = await openDatabase(config);
  try {
    const { rows } = await sql<{ partner_id: string }>`
      select partner_id from credentials where client_id = ${sandbox.clientId}`.execute(opened.db);
    const issued = await issueCredential(opened.db, rows[0]!.partner_id, 'production');
    return { clientId: issued.clientId, clientSecret: issued.clientSecret };
  } finally {
    await opened.close();
  }
}

/**
 * Live receipts end to end: a service started as production runs it, RECEIPTS live donations recorded through
 * POST /donations, then settled by one remittance batch; timed from the POST of the batch until the local SMTP
 * server has accepted every receipt (reconciliation, receipt issue at settlement, PDF rendering and SMTP delivery by
 * the mail-delivery worker). MONEY_RUNS runs on the same service, fresh donations each time.
 */
export async function measureReceipts(
  context: { repoRoot: string; workDir: string },
  progress: (message: string) => void,
): Promise<MoneyResult> {
  // A database of its own: the other workloads' sandbox receipts wait in the outbox (held: pre-production sends
  // nothing without MAIL_REDIRECT_TO), and a service that can send queues every held message again when it starts,
  // ahead of the receipts measured here.
  const workDir = join(context.workDir, 'receipts');
  mkdirSync(workDir, { recursive: true });
  const database = await createBenchDatabase(process.env.DATABASE_URL, workDir);
  try {
    const seeding = await startService({ ...context, workDir, database, logName: 'service-receipts-seed.log' });
    const sandbox = seeding.credentials;
    await seeding.stop();
    return await measureReceiptsOn({ ...context, workDir, database }, sandbox, progress);
  } finally {
    await database.drop();
  }
}

/** The same, on a database the caller made and seeded (the history bench: its empty and its history database). */
export async function measureReceiptsOn(
  context: { repoRoot: string; workDir: string; database: BenchDatabase },
  sandbox: Credentials,
  progress: (message: string) => void,
): Promise<MoneyResult> {
  const credentials = await productionCredentials(context.database, sandbox);
  const sink = await startSmtpSink();
  const service = await startService({
    ...context,
    credentials,
    env: productionEnv(sink.url),
    logName: 'service-receipts.log',
    phase: 'receipts (a production service, PDFs and SMTP)',
    cpuProfileDir,
  });
  const basePath = new URL(service.baseUrl).pathname.replace(/\/$/, '');
  const runs: MoneyRun[] = [];
  try {
    for (let i = 0; i < MONEY_RUNS; i += 1) {
      const donations = await createDonations(service.origin, basePath, credentials, RECEIPTS);
      const before = sink.counts();
      const cpuBefore = cpuSeconds(service.pid);
      const started = performance.now();
      const runId = randomUUID().slice(0, 8);
      const batchId = await postBatch(
        service.baseUrl,
        credentials,
        donations.map((donationId, n) => ({
          reference: `RCPT-${runId}-${n}`,
          amount: Number(DONATION_AMOUNT),
          donationId,
        })),
      );
      let settledMs: number | null = null;
      await until(
        async () => {
          if (
            settledMs === null &&
            (await batchState(service.baseUrl, credentials, batchId)).status.startsWith('completed')
          )
            settledMs = performance.now() - started;
          return sink.counts().accepted - before.accepted;
        },
        (n) => n >= RECEIPTS,
        `${RECEIPTS} receipts at the SMTP server`,
        TIMEOUT_MS,
        100,
      );
      const ms = performance.now() - started;
      const cpuAfter = cpuSeconds(service.pid);
      const after = sink.counts();
      const withPdf = after.withPdf - before.withPdf;
      const delivered = after.accepted - before.accepted;
      runs.push({
        ms,
        perSecond: RECEIPTS / (ms / 1000),
        cpuUsPerItem: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / RECEIPTS,
        peakRssMb: service.memory().peakMb,
        errors: Math.abs(delivered - RECEIPTS) + (RECEIPTS - Math.min(withPdf, RECEIPTS)),
        detail: `batch settled after ${settledMs === null ? '?' : Math.round(settledMs)} ms; ${delivered} messages, ${withPdf} with a PDF`,
      });
      progress(
        `  receipts run ${i + 1}: ${Math.round(ms)} ms, ${(RECEIPTS / (ms / 1000)).toFixed(0)}/s; ${runs.at(-1)!.detail}`,
      );
    }
    return { runs, error: null };
  } catch (err) {
    return { runs, error: (err as Error).message };
  } finally {
    const peak = await service.stop();
    for (const run of runs) run.peakRssMb = peak;
    await sink.close();
  }
}
