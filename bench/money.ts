import type { BenchDatabase } from './database.js';
import { DEBITS, measureDebits } from './debits.js';
import { checkExactlyOnce, type ExactlyOnce } from './money-checks.js';
import { GRANT_ADVICES, measureGrantAdvices } from './grant-advices.js';
import { cpuProfileDir, medianRun, MONEY_RUNS, type MoneyResult, type MoneyRun } from './money-support.js';
import { measureReceipts, RECEIPTS } from './receipts.js';
import type { Row, Target } from './report.js';
import { measureResume, RESUME_ENTRIES, type ResumeRun } from './resume.js';
import { startService } from './service.js';
import {
  importStatementFile,
  prepareStatementEntries,
  STATEMENT_LINES,
  statementFile,
  writeStatementFile,
  type StatementEntries,
} from './statement.js';
import type { Credentials } from './workloads.js';

export interface MoneyLoop {
  receipts: MoneyResult | null;
  'grant-advices': MoneyResult | null;
  debits: MoneyResult | null;
  statement: MoneyResult | null;
  resume: MoneyResult | null;
  checks: ExactlyOnce | null;
}

interface Context {
  repoRoot: string;
  workDir: string;
  database: BenchDatabase;
}

/**
 * The background work of the money loop, after the load workloads, each phase on a service of its own so
 * that the load workloads' peak RSS stays theirs: debits collected, a reconciliation killed and resumed, and the
 * statements' entries prepared, on a sandbox service; then, with no service running, the exactly-once checks and the
 * statement imports; then live receipts on a production-like service.
 */
export async function runMoneyLoop(
  context: Context,
  credentials: Credentials,
  wanted: (key: string) => boolean,
  progress: (message: string) => void,
): Promise<MoneyLoop> {
  const loop: MoneyLoop = {
    receipts: null,
    'grant-advices': null,
    debits: null,
    statement: null,
    resume: null,
    checks: null,
  };
  const prepared: StatementEntries[] = [];
  const resumed: ResumeRun[] = [];
  if (wanted('debits') || wanted('statement') || wanted('resume')) {
    // The untimed advance between debit runs settles the previous run's 10,000 payments in one request, longer
    // than the default minute a silent connection is kept: the sandbox service keeps it for ten.
    const env = { CONNECTION_IDLE_TIMEOUT_MS: '600000' };
    const options = {
      ...context,
      credentials,
      logName: 'service-money.log',
      phase: 'money loop: debits, resume, statement entries',
      cpuProfileDir,
      env,
    };
    let service = await startService(options);
    try {
      if (wanted('debits')) {
        progress(`debits: ${DEBITS} plans due tomorrow, then the sandbox clock a day on, ${MONEY_RUNS} times`);
        loop.debits = await measureDebits(service, progress);
        service.mark('debits');
      }
      if (wanted('resume'))
        for (let i = 0; i < MONEY_RUNS; i += 1) {
          progress(`resume: a ${RESUME_ENTRIES}-entry batch, kill -9 mid-run, restart (run ${i + 1})`);
          const resumedRun = await measureResume(service, options);
          service = resumedRun.service;
          resumed.push(resumedRun.run);
          progress(`  ${resumedRun.run.ms} ms from the restart to completed; ${resumedRun.run.detail}`);
        }
      if (wanted('statement'))
        for (let i = 0; i < MONEY_RUNS; i += 1) {
          progress(`statement: entries for statement ${i + 1} (donations, one batch, reconciled)`);
          prepared.push(await prepareStatementEntries(service));
        }
    } catch (err) {
      progress(`money loop failed: ${(err as Error).message}`);
      if (wanted('statement') && prepared.length < MONEY_RUNS)
        loop.statement = { runs: [], error: (err as Error).message };
      if (wanted('resume') && resumed.length < MONEY_RUNS)
        loop.resume = { runs: resumed, error: (err as Error).message };
    } finally {
      await service.stop();
    }
    loop.checks = await checkExactlyOnce(
      context.database,
      resumed.map((r) => r.batchId),
    );
    if (wanted('resume')) loop.resume ??= { runs: resumed, error: null };
    if (wanted('statement') && !loop.statement) loop.statement = await importStatements(context, prepared, progress);
  }
  if (wanted('receipts')) {
    progress(`receipts: ${RECEIPTS} live donations settled, receipted and mailed, ${MONEY_RUNS} times`);
    loop.receipts = await measureReceipts(context, progress);
  }
  if (wanted('grant-advices')) {
    progress(`grant advices: a paid round of ${GRANT_ADVICES} grants advised and mailed, ${MONEY_RUNS} times`);
    loop['grant-advices'] = await measureGrantAdvices(context, progress);
  }
  return loop;
}

async function importStatements(context: Context, prepared: StatementEntries[], progress: (message: string) => void) {
  const runs: MoneyRun[] = [];
  try {
    for (const [i, entries] of prepared.entries()) {
      const file = statementFile(context.workDir, i);
      writeStatementFile(file, entries);
      const run = await importStatementFile(context.repoRoot, context.database, file);
      runs.push(run);
      progress(
        `  statement ${i + 1}: ${Math.round(run.ms)} ms, peak RSS ${Math.round(run.peakRssMb ?? 0)} MB; ${run.detail}`,
      );
    }
    return { runs, error: null };
  } catch (err) {
    return { runs, error: (err as Error).message };
  }
}

const WORKLOADS = {
  receipts: `${RECEIPTS.toLocaleString('en-US')} live donations settled → receipts issued and accepted by SMTP`,
  'grant-advices': `paid round of ${GRANT_ADVICES.toLocaleString('en-US')} grants → advices issued and accepted by SMTP`,
  debits: `${DEBITS.toLocaleString('en-US')} debits due at once, collected (sandbox clock, simulator)`,
  statement: `${STATEMENT_LINES.toLocaleString('en-US')}-line bank statement (CSV) imported and matched`,
  resume: `${RESUME_ENTRIES.toLocaleString('en-US')}-entry batch killed mid-run (kill -9): restart → completed`,
} as const;

export function moneyRows(loop: MoneyLoop): Row[] {
  return (Object.keys(WORKLOADS) as (keyof typeof WORKLOADS)[]).flatMap((key): Row[] => {
    const result = loop[key];
    if (!result) return [];
    const m = medianRun(result);
    if (!m || result.error)
      return [{ workload: WORKLOADS[key], p50: `not measured: ${result.error ?? 'no run'}`, errors: 1 }];
    const { median, range } = m;
    const rates = result.runs.flatMap((r) => (r.perSecond === null ? [] : [r.perSecond]));
    const extra = [
      median.cpuUsPerItem === null ? null : `CPU ${Math.round(median.cpuUsPerItem)} µs per item`,
      median.peakRssMb === null ? null : `peak RSS ${Math.round(median.peakRssMb)} MB`,
      median.detail,
    ].filter(Boolean);
    return [
      {
        workload: `${WORKLOADS[key]} (${result.runs.length} runs)`,
        ...(median.perSecond === null
          ? {}
          : { rps: median.perSecond, rpsRange: [Math.min(...rates), Math.max(...rates)] as [number, number] }),
        p50: `${Math.round(median.ms)} ms (${Math.round(range[0])}–${Math.round(range[1])}); ${extra.join('; ')}`,
        errors: result.runs.reduce((sum, r) => sum + r.errors, 0),
      },
    ];
  });
}

export function moneyTargets(kind: 'postgres' | 'embedded', loop: MoneyLoop): Target[] {
  const onPostgres = (met: boolean) => (kind === 'postgres' ? met : null);
  const targets: Target[] = [];
  const clean = (r: MoneyResult) => r.error === null && r.runs.every((run) => run.errors === 0);
  const shown = (r: MoneyResult, unit: (run: MoneyRun) => string) => {
    const m = medianRun(r);
    if (!m || r.error) return r.error ?? 'no run';
    const sorted = [...r.runs].sort((a, b) => a.ms - b.ms);
    return `median ${unit(m.median)}, runs ${sorted.map(unit).join(', ')}; ${r.runs.reduce((s, x) => s + x.errors, 0)} errors`;
  };
  const rate = (run: MoneyRun) => `${run.perSecond!.toFixed(0)}/s`;
  const seconds = (run: MoneyRun) => `${(run.ms / 1000).toFixed(2)} s`;
  const median = (r: MoneyResult) => medianRun(r)?.median ?? null;
  if (loop.receipts) {
    const m = median(loop.receipts);
    targets.push({
      description: 'receipts issued and delivered ≥ 200 per second on PostgreSQL',
      met: m ? onPostgres(clean(loop.receipts) && m.perSecond! >= 200) : false,
      actual: shown(loop.receipts, rate),
    });
  }
  const advices = loop['grant-advices'];
  if (advices) {
    const m = median(advices);
    targets.push({
      description: 'grant advices issued and delivered ≥ 100 per second on PostgreSQL',
      met: m ? onPostgres(clean(advices) && m.perSecond! >= 100) : false,
      actual: shown(advices, rate),
    });
  }
  if (loop.debits) {
    const m = median(loop.debits);
    const d = loop.checks?.debits;
    const once = d ? d.debits === d.distinctDebits && d.payments === d.paidDebits && d.paidDebits === d.debits : false;
    targets.push({
      description: 'due debits collected ≥ 500 per second on PostgreSQL',
      met: m ? onPostgres(clean(loop.debits) && once && m.perSecond! >= 500) : false,
      actual: `${shown(loop.debits, rate)}; database: ${d ? `${d.debits} debits (${d.distinctDebits} distinct plan and date), ${d.payments} payments of ${d.paidDebits} debits` : 'not checked'}`,
    });
  }
  if (loop.statement) {
    const m = median(loop.statement);
    targets.push({
      description: '100,000-line bank statement imported and matched ≤ 10 s on PostgreSQL',
      met: m ? onPostgres(clean(loop.statement) && m.ms <= 10_000) : false,
      actual: shown(loop.statement, seconds),
    });
  }
  if (loop.resume) {
    const m = median(loop.resume);
    const resumed = loop.checks?.resumed ?? [];
    const once =
      resumed.length > 0 &&
      resumed.every((r) => r.settlements === RESUME_ENTRIES && r.distinctDonations === RESUME_ENTRIES);
    targets.push({
      description: 'reconciliation resumed after kill -9 ≤ 5 s on PostgreSQL',
      met: m ? onPostgres(clean(loop.resume) && once && m.ms <= 5000) : false,
      actual: `${shown(loop.resume, seconds)}; settled once each: ${once ? 'yes' : 'no'} (${resumed.map((r) => `${r.settlements} settlements of ${r.distinctDonations} donations, ${r.attempts} runs`).join('; ')})`,
    });
  }
  return targets;
}
