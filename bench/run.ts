/**
 * `npm run bench`: the real service under load, beside bare node:http baselines, on a fresh database (embedded by
 * default, PostgreSQL when DATABASE_URL names a server). Prints one table and writes it to BENCHMARKS.md.
 *
 * Knobs (environment): BENCH_SECONDS (measured seconds per workload, default 6), BENCH_WARMUP_SECONDS (default 1),
 * BENCH_RUNS (times each load workload is measured, default 3; the median is reported),
 * BENCH_ONLY (comma-separated workload keys: ping, fundraisers, accounts, donations, mandates, remittance, batches, report, import,
 * and the money loop's debits, statement, resume, receipts, grant-advices (bench/money.ts; BENCH_MONEY_RUNS runs each, default 3),
 * grants (a round drafted over 10,000 clubs and 1,000,000 donations, bench/grants.ts; alone it starts no service),
 * and deidentify (bench/deidentify.ts: BENCH_DEIDENTIFY donations a run, BENCH_DEIDENTIFY_RUNS runs; alone, no service),
 * and request-log (bench/request-log.ts: POST /donations with the request log on and off, two services; alone, PostgreSQL);
 * for one path alone, e.g. BENCH_ONLY=report for the 100,000-entry remittance report), BENCH_CPU_PROF (a directory: the service runs
 * with --cpu-prof and writes its profile there), BENCH_SERVICE_NODE_ARGS (more node flags for the service, e.g.
 * --trace-gc), BENCH_KEEP (keep the temp dir and the service's log), BENCH_KEEP_DATABASE, BENCH_MEMORY_DETAIL=1 (each
 * service and the statement import run with bench/memory-probe.js, and each phase's row splits the V8 heap from native
 * memory: PGlite's WebAssembly memory, compiled code, malloc, the binary).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/index.js';
import { redactUrl } from '../src/infrastructure/db/connect.js';
import { startBaseline, type RunningBaseline } from './baseline.js';
import {
  measureBatchThroughput,
  THROUGHPUT_BATCHES,
  THROUGHPUT_ENTRIES,
  type BatchThroughputResult,
} from './batch-throughput.js';
import { createBenchDatabase, databaseVersionOf, type BenchDatabase } from './database.js';
import { DEIDENTIFY_DONATIONS, deidentifyTarget, measureDeidentify } from './deidentify.js';
import {
  measure,
  measurePair,
  medianOf,
  pairedRatio,
  send,
  type LoadResult,
  type LoadSpec,
  type Measured,
} from './load.js';
import {
  POLL_INTERVAL_MS,
  postRemittanceBatch,
  REMITTANCE_DONATIONS,
  REMITTANCE_ENTRIES,
  type RemittanceResult,
} from './remittance.js';
import {
  measureReport,
  prepareReport,
  REPORT_ENTRIES,
  type PreparedReport,
  type ReportResult,
} from './remittance-report.js';
import { machineDescription, table, targetsList, writeSection, type Row } from './report.js';
import { BENCH_QUOTA_LIMIT, buildService, startService } from './service.js';
import { evaluateTargets, importTargets, memoryTargets, requestLogTarget, throughputTargets } from './targets.js';
import { measureRequestLog } from './request-log.js';
import { memoryRows, phasesMeasured } from './process-memory.js';
import { IMPORT_ROWS, measureImport, type ImportResult } from './account-import.js';
import { moneyRows, moneyTargets, runMoneyLoop, type MoneyLoop } from './money.js';
import { GRANT_CLUBS, GRANT_DONATIONS_PER_CLUB, grantRows, grantTargets, measureGrantRound } from './grants.js';
import {
  accountPath,
  donationRequest,
  fundraisersPath,
  getRequest,
  mandateRequest,
  pingPath,
  type Credentials,
} from './workloads.js';

const CONNECTIONS = 50;
const timing = {
  seconds: Number(process.env.BENCH_SECONDS ?? 6),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 1),
};
/** Each load workload is measured this many times, service and baseline alternating; the median is reported. */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
/** Each run of a workload with a bare baseline alternates between the two this many times (load.ts, measurePair). */
const PAIR_SLICES = 3;
const MONEY_KEYS = ['debits', 'statement', 'resume', 'receipts', 'grant-advices'];
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const wanted = (key: string) => !only || only.has(key);
const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main() {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const workDir = mkdtempSync(join(tmpdir(), 'fundraiser-bench-'));
  const serverUrl = process.env.DATABASE_URL;
  const poolMax = loadConfig(process.env).DB_POOL_MAX;
  const startedAt = Date.now();
  // Read before the bench adds its own load: what else was running on the machine.
  const [loadAtStart] = loadavg();
  if (only && [...only].every((key) => key === 'grants'))
    return grantsAlone({ repoRoot, workDir, serverUrl, startedAt, loadAtStart: loadAtStart ?? 0 });
  // The de-identification alone needs no service: its own short section (bench/deidentify.ts).
  if (only?.size === 1 && only.has('deidentify')) return deidentifyAlone(repoRoot, workDir, serverUrl, startedAt);
  // The request log's cost alone: two services of the build, log on and off (bench/request-log.ts).
  if (only?.size === 1 && only.has('request-log'))
    return requestLogAlone(repoRoot, workDir, serverUrl, startedAt, loadAtStart ?? 0);
  // BENCH_NO_BUILD=1: the dist/ already built (runs side by side must not rebuild it under each other).
  if (process.env.BENCH_NO_BUILD === '1') progress('using the dist/ already built (BENCH_NO_BUILD=1)');
  else {
    progress('npm run build (the service runs compiled, as npm start and the image run it)');
    buildService(repoRoot);
  }
  const database = await createBenchDatabase(serverUrl, workDir);
  try {
    progress(`database: ${database.location}; work dir ${workDir}`);
    const run = await runWorkloads({ repoRoot, workDir, database, poolMax });
    const measured = summarise(run.results, run.base);
    // After the service stopped: drafting is one transaction of the schedule job, timed on its own connection.
    const grants = wanted('grants') ? await measureGrantRound(database, progress) : null;
    const rows = [
      ...buildRows(measured, run.remittance),
      ...throughputRows(run.throughput),
      ...reportRows(run.report),
      ...importRows(run.accountImport),
      ...(run.money ? moneyRows(run.money) : []),
      ...(grants ? grantRows(grants) : []),
      ...memoryRows(phasesMeasured()),
    ];
    const targets = evaluateTargets(database.kind, measured, run.remittance, run.report);
    targets.push(...throughputTargets(database.kind, run.throughput), ...importTargets(run.accountImport));
    if (run.money) targets.push(...moneyTargets(database.kind, run.money));
    if (grants) targets.push(...grantTargets(database.kind, grants));
    targets.push(...memoryTargets(database.kind, phasesMeasured()));
    if (wanted('deidentify')) {
      progress(`deidentify: ${DEIDENTIFY_DONATIONS} donations past their retention, the job timed`);
      targets.push(deidentifyTarget(database.kind, await measureDeidentify(database, progress)));
    }
    const command = serverUrl ? `DATABASE_URL=${redactUrl(serverUrl)} npm run bench` : 'npm run bench';
    const overrides = Object.entries(process.env)
      .filter(([k]) => k.startsWith('BENCH_'))
      .map(([k, v]) => `${k}=${v} `)
      .join('');
    const body = [
      `## ${database.kind === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}${only ? `: ${[...only].join(', ')} alone` : ''}`,
      '',
      `Command: \`${overrides}${command}\` — ${new Date(startedAt).toISOString()}, whole run ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`,
      '',
      machineDescription({
        kind: database.kind,
        location: database.location,
        version: run.databaseVersion ?? (await databaseVersionOf(database)),
        loadAtStart: loadAtStart ?? 0,
      }),
      '',
      `${CONNECTIONS} connections, ${timing.warmupSeconds} s warm-up then ${timing.seconds} s measured, ${RUNS} runs (median, lowest–highest); ratios from ${PAIR_SLICES} alternating slices; ` +
        `log level ${process.env.LOG_LEVEL || 'info'}; ${database.kind === 'postgres' ? `pool size ${poolMax}` : 'one in-process PGlite connection'}; quotas on (limit ${BENCH_QUOTA_LIMIT.toLocaleString('en-US')}); ` +
        `${REMITTANCE_DONATIONS.toLocaleString('en-US')} donations for the remittance batch through POST /donations ([method](docs/performance.md#how-the-bench-measures)).`,
      '',
      table(rows),
      '',
      ...cpuLines(measured),
      'Targets:',
      targetsList(targets),
    ].join('\n');
    process.stdout.write(`\n${body}\n`);
    if (!only) writeSection(join(repoRoot, 'BENCHMARKS.md'), database.kind, body);
    // The money loop's workloads alone (BENCH_ONLY naming only them) have a section of their own.
    else if ([...only].every((key) => MONEY_KEYS.includes(key)))
      writeSection(join(repoRoot, 'BENCHMARKS.md'), `${database.kind}:${[...only].sort().join(',')}`, body);
  } finally {
    await database.drop();
    if (!process.env.BENCH_KEEP) rmSync(workDir, { recursive: true, force: true });
  }
}

/** BENCH_ONLY=grants: the grant round alone, on a fresh database, in a section of its own. */
async function grantsAlone(run: {
  repoRoot: string;
  workDir: string;
  serverUrl: string | undefined;
  startedAt: number;
  loadAtStart: number;
}) {
  const database = await createBenchDatabase(run.serverUrl, run.workDir);
  try {
    progress(`database: ${database.location}; work dir ${run.workDir}`);
    const result = await measureGrantRound(database, progress);
    const command = `BENCH_ONLY=grants ${run.serverUrl ? `DATABASE_URL=${redactUrl(run.serverUrl)} ` : ''}npm run bench`;
    const body = [
      `## ${database.kind === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}: grants alone`,
      '',
      `Command: \`${command}\` — ${new Date(run.startedAt).toISOString()}, whole run ${((Date.now() - run.startedAt) / 1000).toFixed(0)} s.`,
      '',
      machineDescription({
        kind: database.kind,
        location: database.location,
        version: await databaseVersionOf(database),
        loadAtStart: run.loadAtStart,
      }),
      '',
      `${GRANT_CLUBS.toLocaleString('en-US')} clubs with verified bank details, ${GRANT_DONATIONS_PER_CLUB} settled donations each, written straight into the tables; one round drafted over all of them (one repeatable-read transaction: the sums, the lines, the claims).`,
      '',
      table(grantRows(result)),
      '',
      'Targets:',
      targetsList(grantTargets(database.kind, result)),
    ].join('\n');
    process.stdout.write(`\n${body}\n`);
    writeSection(join(run.repoRoot, 'BENCHMARKS.md'), `${database.kind}:grants`, body);
  } finally {
    await database.drop();
    if (!process.env.BENCH_KEEP) rmSync(run.workDir, { recursive: true, force: true });
  }
}

/** BENCH_ONLY=deidentify: the de-identification job alone, on a fresh database, in a section of its own. */
async function deidentifyAlone(repoRoot: string, workDir: string, serverUrl: string | undefined, startedAt: number) {
  const database = await createBenchDatabase(serverUrl, workDir);
  try {
    progress(
      `deidentify: ${DEIDENTIFY_DONATIONS} donations past their retention, the job timed (${database.location})`,
    );
    const result = await measureDeidentify(database, progress);
    const command = serverUrl ? `DATABASE_URL=${redactUrl(serverUrl)} npm run bench` : 'npm run bench';
    const body = [
      `## ${database.kind === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}: de-identification alone`,
      '',
      `Command: \`BENCH_ONLY=deidentify ${command}\` — ${new Date(startedAt).toISOString()}, whole run ${((Date.now() - startedAt) / 1000).toFixed(0)} s; load average at start ${loadavg()[0]!.toFixed(2)} (the machine is shared).`,
      '',
      'Each run loads the donations eight years old with one INSERT … SELECT generate_series, then times one run of the privacy-deidentify job over them (docs/privacy.md).',
      '',
      'Targets:',
      targetsList([deidentifyTarget(database.kind, result)]),
    ].join('\n');
    process.stdout.write(`\n${body}\n`);
    writeSection(join(repoRoot, 'BENCHMARKS.md'), `${database.kind}:deidentify`, body);
  } finally {
    await database.drop();
    if (!process.env.BENCH_KEEP) rmSync(workDir, { recursive: true, force: true });
  }
}

/** BENCH_ONLY=request-log: POST /donations with the request log on and off, side by side, in a section of its own. */
async function requestLogAlone(
  repoRoot: string,
  workDir: string,
  serverUrl: string | undefined,
  startedAt: number,
  loadAtStart: number,
) {
  progress('npm run build (the service runs compiled, as npm start and the image run it)');
  buildService(repoRoot);
  const database = await createBenchDatabase(serverUrl, workDir);
  try {
    const result = await measureRequestLog({ repoRoot, workDir, database }, timing, progress);
    const command = serverUrl ? `DATABASE_URL=${redactUrl(serverUrl)} npm run bench` : 'npm run bench';
    const body = [
      `## ${database.kind === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}: request log alone`,
      '',
      `Command: \`BENCH_ONLY=request-log ${command}\` — ${new Date(startedAt).toISOString()}, whole run ${((Date.now() - startedAt) / 1000).toFixed(0)} s; load average at start ${loadAtStart.toFixed(2)} (the machine is shared).`,
      '',
      `Two services of the same build on one fresh database, PARTNER_REQUEST_LOG on and off, each loaded with POST /donations at ${CONNECTIONS} connections in alternating slices (${timing.warmupSeconds} s warm-up each, then ${timing.seconds} s per side per run), the order swapped every run; ${RUNS} runs, the median ratio reported (docs/performance/request-log.md).`,
      '',
      'Targets:',
      targetsList([requestLogTarget(result)]),
    ].join('\n');
    process.stdout.write(`\n${body}\n`);
    writeSection(join(repoRoot, 'BENCHMARKS.md'), `${database.kind}:request-log`, body);
  } finally {
    await database.drop();
    if (!process.env.BENCH_KEEP) rmSync(workDir, { recursive: true, force: true });
  }
}

interface RunContext {
  repoRoot: string;
  workDir: string;
  database: BenchDatabase;
  poolMax: number;
}

/**
 * The service's workloads, each followed at once by its baseline's when it has one, so that both meet the same
 * machine (others' work comes and goes on a shared machine). The GET baselines need no database; the donations
 * baseline writes into the service's database, which on the embedded database it can open only once the service
 * has stopped.
 */
async function runWorkloads(context: RunContext) {
  const { repoRoot, workDir, database, poolMax } = context;
  progress('starting the service');
  const service = await startService({
    repoRoot,
    workDir,
    database,
    phase: 'load workloads and batches',
    cpuProfileDir: process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined,
    nodeArgs: process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean),
  });
  const basePath = new URL(service.baseUrl).pathname.replace(/\/$/, '');
  const results: Record<string, LoadResult[]> = {};
  const base: Record<string, LoadResult[]> = {};
  let remittance: RemittanceResult | null = null;
  let report: ReportResult | null = null;
  let throughput: BatchThroughputResult | null = null;
  let preparedReport: PreparedReport | null = null;
  let databaseVersion: string | null = null;
  let answerHeaders: [string, string][] = [];
  const memory = () => {
    const { rssMb, peakMb } = service.memory();
    return `service RSS ${Math.round(rssMb)} MB, peak ${Math.round(peakMb)} MB`;
  };
  const creds = service.credentials;
  const references: string[] = [];
  const onService = (request: LoadSpec['request']): LoadSpec => ({
    origin: service.origin,
    connections: CONNECTIONS,
    request,
  });
  const runService = async (key: string, request: LoadSpec['request']) => {
    if (!wanted(key)) return;
    progress(`${key} (${memory()})`);
    const result = await measure(onService(request), timing, service.pid);
    (results[key] ??= []).push(result);
    service.mark(key);
    progress(`  ${describe(result)}`);
  };
  const runBaseline = async (key: string, baseline: RunningBaseline, request: LoadSpec['request']) => {
    if (!wanted(key)) return;
    const result = await measure({ origin: baseline.origin, connections: CONNECTIONS, request }, timing, baseline.pid);
    (base[key] ??= []).push(result);
    progress(`  baseline: ${describe(result)}`);
  };
  /** One run of a GET workload beside the bare baseline, in alternating slices (load.ts, measurePair). */
  const runPair = async (
    key: string,
    bare: RunningBaseline,
    request: LoadSpec['request'],
    bareRequest: LoadSpec['request'],
  ) => {
    if (!wanted(key)) return;
    progress(`${key}, beside the baseline in ${PAIR_SLICES} alternating slices (${memory()})`);
    const [own, baseline] = await measurePair(
      [
        { ...onService(request), pid: service.pid },
        { origin: bare.origin, connections: CONNECTIONS, request: bareRequest, pid: bare.pid },
      ],
      timing,
      PAIR_SLICES,
    );
    (results[key] ??= []).push(own);
    (base[key] ??= []).push(baseline);
    service.mark(key);
    progress(`  ${describe(own)}`);
    progress(`  baseline: ${describe(baseline)}`);
  };
  const donationsBaseline = async (times: number) => {
    const baseline = await startBaseline({
      repoRoot,
      workDir,
      database,
      poolMax,
      bodies: { ping: null, fundraisers: null },
      headers: answerHeaders,
    });
    databaseVersion = baseline.databaseVersion;
    try {
      for (let i = 0; i < times; i += 1)
        await runBaseline('donations', baseline, donationRequest(`${basePath}/donations`, null));
    } finally {
      await baseline.stop();
    }
  };

  try {
    const ping = await fetchAnswer(`${service.origin}${pingPath(basePath)}`, creds);
    const fundraisers = await fetchAnswer(`${service.origin}${fundraisersPath(basePath)}`, creds);
    answerHeaders = ping.headers;
    const bodies = { ping: ping.body, fundraisers: fundraisers.body };
    const bare = await startBaseline({ repoRoot, workDir, database: null, poolMax, bodies, headers: answerHeaders });
    try {
      for (const [key, path] of [
        ['ping', pingPath(basePath)],
        ['fundraisers', fundraisersPath(basePath)],
      ] as const)
        for (let i = 0; i < RUNS; i += 1) await runPair(key, bare, getRequest(path, creds), getRequest(path, null));
    } finally {
      await bare.stop();
    }
    for (let i = 0; i < RUNS; i += 1) await runService('accounts', getRequest(accountPath(basePath), creds));
    for (let i = 0; i < RUNS; i += 1) {
      await runService(
        'donations',
        donationRequest(`${basePath}/donations`, creds, (id) => references.push(id)),
      );
      if (database.kind === 'postgres' && wanted('donations')) await donationsBaseline(1);
    }
    for (let i = 0; i < RUNS; i += 1) await runService('mandates', mandateRequest(`${basePath}/mandates`, creds));
    if (wanted('remittance')) {
      const missing = REMITTANCE_DONATIONS - references.length;
      progress(
        `remittance: creating ${Math.max(0, missing)} more donations, then one batch of ${REMITTANCE_ENTRIES} entries`,
      );
      if (missing > 0)
        await send(onService(donationRequest(`${basePath}/donations`, creds, (id) => references.push(id))), missing);
      progress(`remittance: posting the batch (${memory()})`);
      remittance = await postRemittanceBatch(service.baseUrl, creds, references);
      service.mark('remittance');
    }
    if (wanted('batches')) {
      progress(`batches: ${THROUGHPUT_BATCHES} batches of ${THROUGHPUT_ENTRIES} entries posted at once (${memory()})`);
      throughput = await measureBatchThroughput(service.origin, service.baseUrl, creds);
      service.mark('batches');
      progress(`  ${throughput.batchesPerSecond?.toFixed(0) ?? '?'} batches/s; ${throughput.detail}`);
    }
    if (wanted('report')) {
      progress(`report: posting and reconciling a batch of ${REPORT_ENTRIES} entries (${memory()})`);
      preparedReport = await prepareReport(service.baseUrl, creds);
      service.mark('report (100,000-entry batch posted and reconciled)');
    }
  } finally {
    progress(`stopping the service (${memory()})`);
    await service.stop();
  }
  if (preparedReport) report = await readReport(context, service.credentials, preparedReport);
  if (database.kind === 'embedded' && wanted('donations')) await donationsBaseline(RUNS);
  let accountImport: ImportResult | null = null;
  if (wanted('import')) {
    progress(`import: ${IMPORT_ROWS} account rows, three times (the first creates them)`);
    accountImport = await measureImport(database);
    progress(`  ${accountImport.error ?? accountImport.runsMs.map((ms) => `${Math.round(ms)} ms`).join(', ')}`);
  }
  let money: MoneyLoop | null = null;
  if (MONEY_KEYS.some(wanted))
    money = await runMoneyLoop({ repoRoot, workDir, database }, service.credentials, wanted, progress);
  return { results, base, remittance, report, throughput, databaseVersion, accountImport, money };
}

/**
 * The report is read from a service started afresh on the same database: the process that has just parsed and
 * validated a 100,000-entry POST keeps the heap it grew for it, which says nothing about what reading costs.
 */
async function readReport(context: RunContext, credentials: Credentials, prepared: PreparedReport) {
  const { repoRoot, workDir, database } = context;
  progress('report: restarting the service, then reading the first page and the CSV');
  const service = await startService({ repoRoot, workDir, database, credentials, phase: 'report read (page, CSV)' });
  try {
    const report = await measureReport(service.baseUrl, credentials, prepared, {
      rssMb: () => service.memory().rssMb,
      pid: service.pid,
    });
    progress(
      `  ${report.error ?? 'ok'}; first page p50 ${report.firstPageP50Ms.toFixed(1)} ms; CSV ${Math.round(report.csvMs)} ms`,
    );
    return report;
  } finally {
    await service.stop();
  }
}

/** A GET of the service: its JSON body and the headers every answer carries, for the baseline to send the same. */
async function fetchAnswer(
  url: string,
  credentials: Credentials,
): Promise<{ body: unknown; headers: [string, string][] }> {
  const response = await fetch(url, {
    headers: {
      'x-correlation-id': crypto.randomUUID(),
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    },
  });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  // The protective, quota and content headers; node:http writes its own framing headers.
  const framing = new Set([
    'date',
    'connection',
    'keep-alive',
    'content-length',
    'transfer-encoding',
    'x-correlation-id',
  ]);
  const headers = [...response.headers].filter(([name]) => !framing.has(name));
  return { body: await response.json(), headers };
}

/**
 * CPU time per request of the serving process (steadier than req/s when the machine is shared), then a blank line;
 * nothing when no request workload ran (the money loop's rows give their own CPU per item).
 */
function cpuLines(measured: Measured): string[] {
  const us = (r: LoadResult | undefined) =>
    r?.cpuUsPerRequest == null ? undefined : `${Math.round(r.cpuUsPerRequest)}`;
  const parts = Object.entries(WORKLOAD_NAMES).flatMap(([key, name]) => {
    const own = us(measured.service[key]);
    if (own === undefined) return [];
    const baseline = us(measured.base[key]);
    return [`${name} ${own}${baseline === undefined ? '' : ` (baseline ${baseline})`}`];
  });
  if (parts.length === 0) return [];
  return [`Server CPU per request (median run), user + system, µs: ${parts.join('; ')}.`, ''];
}

const WORKLOAD_NAMES: Record<string, string> = {
  ping: 'GET /ping',
  fundraisers: 'GET /fundraisers',
  accounts: 'GET /accounts/{id}',
  donations: 'POST /donations',
  mandates: 'POST /mandates (simulator)',
};

function summarise(results: Record<string, LoadResult[]>, base: Record<string, LoadResult[]>): Measured {
  const medians = (all: Record<string, LoadResult[]>) =>
    Object.fromEntries(Object.entries(all).map(([key, runs]) => [key, medianOf(runs)]));
  const ratios = Object.fromEntries(
    Object.keys(base)
      .filter((key) => results[key])
      .map((key) => [key, pairedRatio(results[key]!, base[key]!)]),
  );
  return { service: medians(results), base: medians(base), ratios };
}

function describe(result: LoadResult): string {
  const cpu =
    result.cpuUsPerRequest === null ? '' : `, server CPU ${Math.round(result.cpuUsPerRequest)} µs per request`;
  return `${Math.round(result.rps)} req/s, p99 ${result.p99} ms${cpu}`;
}

function buildRows(measured: Measured, remittance: RemittanceResult | null): Row[] {
  const rows = Object.entries(WORKLOAD_NAMES).flatMap(([key, workload]): Row[] => {
    const r = measured.service[key];
    if (!r) return [];
    const baseline = measured.base[key];
    return [
      {
        workload,
        rps: r.rps,
        rpsRange: r.rpsRange,
        p50: r.p50,
        p99: r.p99,
        errors: r.errors,
        baselineRps: baseline?.rps,
        baselineRange: baseline?.rpsRange,
        ratio: measured.ratios[key],
      },
    ];
  });
  if (remittance) {
    const batch = `remittance batch, ${REMITTANCE_ENTRIES.toLocaleString('en-US')} entries / ${REMITTANCE_DONATIONS.toLocaleString('en-US')} donations`;
    rows.push({
      workload: `${batch}: time to 202`,
      p50: `${Math.round(remittance.acceptedMs)} ms`,
      errors: remittance.reconciledMs === null ? remittance.errors : 0,
    });
    rows.push({
      workload: `${batch}: time until reconciled`,
      p50:
        remittance.reconciledMs === null
          ? `not measured: ${remittance.finalStatus}`
          : `${Math.round(remittance.reconciledMs)} ms (${remittance.finalStatus}; worker pick-up ${remittance.pickupMs ?? '?'} ms; ` +
            `late by ≤ ${POLL_INTERVAL_MS} ms poll + ${Math.round(remittance.slowestPollMs)} ms read)`,
      errors: remittance.reconciledMs === null ? undefined : remittance.errors,
    });
  }
  return rows;
}

function throughputRows(result: BatchThroughputResult | null): Row[] {
  if (!result) return [];
  return [
    {
      workload: `${result.batches.toLocaleString('en-US')} batches of ${THROUGHPUT_ENTRIES} entries posted at once: time until the last completed`,
      p50:
        result.completedMs === null
          ? `not measured: ${result.detail}`
          : `${Math.round(result.completedMs)} ms (${result.batchesPerSecond!.toFixed(0)} batches/s; all posted after ${Math.round(result.postedMs)} ms)`,
      errors: result.errors,
    },
  ];
}

function reportRows(report: ReportResult | null): Row[] {
  if (!report) return [];
  const batch = `report of a ${REPORT_ENTRIES.toLocaleString('en-US')}-entry batch`;
  if (report.error) return [{ workload: batch, p50: `not measured: ${report.error}`, errors: 1 }];
  const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return [
    {
      workload: `${batch}: first page (1,000 entries, ${mb(report.firstPageBytes)}), p50 of 7`,
      p50: `${report.firstPageP50Ms.toFixed(1)} ms (service CPU ${report.firstPageCpuMs === null ? '?' : report.firstPageCpuMs.toFixed(1)} ms per request)`,
      errors: 0,
    },
    {
      workload: `${batch}: whole CSV (${mb(report.csvBytes)}, ${report.csvLines.toLocaleString('en-US')} lines)`,
      p50:
        `${Math.round(report.csvMs)} ms (service CPU ${report.csvCpuMs === null ? '?' : Math.round(report.csvCpuMs)} ms; ` +
        `RSS ${Math.round(report.csvRssAtStartMb)} MB at the start, ≤ ${Math.round(report.csvRssMb)} MB while sending)`,
      errors: 0,
    },
    {
      workload: `${batch}: posted then reconciled (for context)`,
      p50: `${Math.round(report.postMs)} ms to 202, ${Math.round(report.reconcileMs)} ms to completed`,
    },
  ];
}

function importRows(result: ImportResult | null): Row[] {
  if (!result) return [];
  return [
    {
      workload: `account import, ${result.rows.toLocaleString('en-US')} CSV rows (first creates, then two updates)`,
      p50: result.error
        ? `not measured: ${result.error}`
        : result.runsMs.map((ms) => `${Math.round(ms)} ms`).join(', '),
      errors: result.error ? 1 : 0,
    },
  ];
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
