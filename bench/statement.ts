import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchDatabase } from './database.js';
import { batchState, cpuProfileDir, createDonations, postBatch, until, type MoneyRun } from './money-support.js';
import { PeakRssSampler, probeLaunch, recordPhase } from './process-memory.js';
import type { RunningService } from './service.js';
import { DONATION_AMOUNT } from './workloads.js';

export const STATEMENT_LINES = Number(process.env.BENCH_STATEMENT_LINES ?? 100_000);
/** Of the lines: credits that pay nothing known (suggestions are looked for) and debits (fees, refunds). */
const UNKNOWN_CREDITS = Math.round(STATEMENT_LINES / 1000);
const DEBIT_LINES = Math.round(STATEMENT_LINES / 1000);
const BATCH_ENTRIES = 10_000;

/** What a statement will pay: the bank references of matched remittance entries, all of DONATION_AMOUNT. */
export interface StatementEntries {
  references: string[];
}

/**
 * Remittance entries for one statement to pay, through the API: one donation per entry (POST /donations), in
 * batches of BATCH_ENTRIES, each reconciled (every entry `matched`, money expected).
 */
export async function prepareStatementEntries(service: RunningService): Promise<StatementEntries> {
  const count = STATEMENT_LINES - UNKNOWN_CREDITS - DEBIT_LINES;
  const basePath = new URL(service.baseUrl).pathname.replace(/\/$/, '');
  const donations = await createDonations(service.origin, basePath, service.credentials, count);
  const runId = randomUUID().slice(0, 8);
  const references = donations.map((_, n) => `STMT-${runId}-${String(n).padStart(6, '0')}`);
  // Batches of BATCH_ENTRIES, as partners post a month's remittances: one batch of 100,000 matched donations
  // issues its 100,000 receipts with one statement, which outlived the statement timeout on a busy machine.
  for (let from = 0; from < donations.length; from += BATCH_ENTRIES) {
    const entries = donations
      .slice(from, from + BATCH_ENTRIES)
      .map((donationId, n) => ({ reference: references[from + n]!, amount: Number(DONATION_AMOUNT), donationId }));
    const batchId = await postBatch(service.baseUrl, service.credentials, entries);
    const state = await until(
      () => batchState(service.baseUrl, service.credentials, batchId),
      (s) => s.status.startsWith('completed') || s.status.startsWith('HTTP'),
      'a statement batch to be reconciled',
      5 * 60_000,
      500,
    );
    if (state.status !== 'completed') throw new Error(`a statement batch ended ${state.status}`);
  }
  return { references };
}

/**
 * A CSV export in the Commonwealth Bank's layout (the `commbank` preset: date, amount, description; no header) of
 * STATEMENT_LINES lines, booked today: a credit for each entry naming its bank reference in the description as
 * a bank would print it, plus credits nobody remitted and debits (fees).
 */
export function writeStatementFile(file: string, entries: StatementEntries): void {
  // Today in the foundation's time zone (FOUNDATION_TIME_ZONE's default), as the preset writes it: DD/MM/YYYY.
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' })
    .format(new Date())
    .split('-');
  const date = `${day}/${month}/${year}`;
  const lines = entries.references.map((ref) => `${date},+${DONATION_AMOUNT},"DIRECT CREDIT STOREFRONT APP ${ref}"`);
  // A tag of this file's own: the same credit and fee lines in every statement would be one bank line each, which
  // the import rightly adds once, and the later statements would read as short.
  const tag = randomUUID().slice(0, 8);
  for (let i = 0; i < UNKNOWN_CREDITS; i += 1)
    lines.push(`${date},+${(5 + i / 100).toFixed(2)},"DIRECT CREDIT J CITIZEN ${tag} ${i}"`);
  for (let i = 0; i < DEBIT_LINES; i += 1) lines.push(`${date},-${(1 + i / 100).toFixed(2)},"ACCOUNT FEE ${tag} ${i}"`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/**
 * Imports the file as `fundraiser-admin bank import` does: the compiled importStatement, in a node process of its
 * own on the bench database, so its time, CPU and peak RSS are the import's alone (the CLI's start and its printing
 * of the result are left out). The service must be stopped on the embedded database (one owner per data directory).
 */
export async function importStatementFile(repoRoot: string, database: BenchDatabase, file: string): Promise<MoneyRun> {
  const script = `
    const root = ${JSON.stringify(repoRoot)};
    const { loadConfig, bankMatchingSettings } = await import(root + '/dist/config/index.js');
    const { openDatabase } = await import(root + '/dist/composition.js');
    const { importStatement } = await import(root + '/dist/services/bank-statements/import-statement.js');
    const { readFileSync } = await import('node:fs');
    const config = loadConfig(process.env);
    const opened = await openDatabase(config);
    const logMs = Number(process.env.BENCH_SQL_LOG_MS ?? 0);
    if (logMs > 0 && opened.kind === 'postgres') {
      // Diagnosis: the server logs every statement of the import slower than this (its own log file).
      const { sql } = await import('kysely');
      await sql\`select set_config('log_min_duration_statement', \${String(logMs)}, false)\`.execute(opened.db);
      await sql.raw('alter database "' + (await sql\`select current_database() as d\`.execute(opened.db)).rows[0].d + '" set log_min_duration_statement = ' + logMs).execute(opened.db);
    }
    const content = readFileSync(${JSON.stringify(file)}, 'utf8');
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await importStatement({ db: opened.db, operator: 'bench', now: () => new Date() },
      bankMatchingSettings(config), { fileName: 'statement.csv', content, preset: 'commbank' });
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    await opened.close();
    process.stdout.write(JSON.stringify({ ms, cpuUs: used.user + used.system, result }) + '\\n');`;
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (database.kind === 'postgres') env.DATABASE_URL = database.url;
  else env.DATA_DIR = database.dataDir;
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  // The heap's flag bin/fundraiser-admin.js sets for the CLI on this database, whose import this process stands for.
  const heap = database.kind === 'postgres' ? '--heap-growing-percent=20' : '--optimize-for-size';
  const probeFile = `${file}.memory.json`;
  const probe = probeLaunch(probeFile);
  const flags = ['--v8-pool-size=1', heap, ...profile, ...probe.nodeArgs];
  const child = spawn(process.execPath, [...flags, '--input-type=module', '-e', script], {
    cwd: repoRoot,
    env: { ...env, ...probe.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const rss = new PeakRssSampler(child.pid!, 50);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const peakRssMb = rss.stop();
  recordPhase('statement import (the CLI process)', peakRssMb, probeFile);
  const line = out.trim().split('\n').at(-1);
  if (code !== 0 || !line) throw new Error(`the import exited ${code}: ${err.slice(-800)}`);
  const { ms, cpuUs, result } = JSON.parse(line) as {
    ms: number;
    cpuUs: number;
    result: {
      linesRead: number;
      linesAdded: number;
      automatic?: number;
      suggestions?: number;
      unmatchedLines?: number;
    };
  };
  const expected = STATEMENT_LINES - UNKNOWN_CREDITS - DEBIT_LINES;
  return {
    ms,
    perSecond: result.linesRead / (ms / 1000),
    cpuUsPerItem: cpuUs / result.linesRead,
    peakRssMb,
    errors: Math.abs(result.linesAdded - STATEMENT_LINES) + Math.abs((result.automatic ?? 0) - expected),
    detail: `${result.linesAdded} lines added, ${result.automatic ?? '?'} matched automatically, ${result.suggestions ?? '?'} suggestions, ${result.unmatchedLines ?? '?'} credit lines unmatched`,
  };
}

export const statementFile = (workDir: string, run: number) => join(workDir, `statement-${run}.csv`);
