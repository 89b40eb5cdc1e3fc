/**
 * `npm run bench`: the real service under load, beside bare node:http baselines, on a fresh database (embedded by
 * default, PostgreSQL when DATABASE_URL names a server). Prints one table and writes it to BENCHMARKS.md.
 *
 * Knobs (environment): BENCH_SECONDS (measured seconds per workload, default 6), BENCH_WARMUP_SECONDS (default 1),
 * BENCH_ONLY (comma-separated workload keys, for profiling one path), BENCH_CPU_PROF (a directory: the service runs
 * with --cpu-prof and writes its profile there), BENCH_SERVICE_NODE_ARGS (more node flags for the service, e.g.
 * --trace-gc), BENCH_KEEP (keep the temp dir and the service's log), BENCH_KEEP_DATABASE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { redactUrl } from '../src/infrastructure/db/connect.js';
import { startBaseline, type RunningBaseline } from './baseline.js';
import { createBenchDatabase, type BenchDatabase } from './database.js';
import { measure, send, type LoadResult, type LoadSpec } from './load.js';
import { POLL_INTERVAL_MS, postRemittanceBatch, REMITTANCE_DONATIONS, REMITTANCE_ENTRIES, type RemittanceResult } from './remittance.js';
import { machineDescription, table, targetsList, writeSection, type Row } from './report.js';
import { BENCH_QUOTA_LIMIT, startService } from './service.js';
import { evaluateTargets } from './targets.js';
import { accountPath, donationRequest, fundraisersPath, getRequest, mandateRequest, pingPath, type Credentials } from './workloads.js';

const CONNECTIONS = 50;
const timing = { seconds: Number(process.env.BENCH_SECONDS ?? 6), warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 1) };
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
  const database = await createBenchDatabase(serverUrl, workDir);
  try {
    progress(`database: ${database.location}; work dir ${workDir}`);
    const run = await runWorkloads({ repoRoot, workDir, database, poolMax });
    const rows = buildRows(run.results, run.base, run.remittance, run.peakRssMb);
    const targets = evaluateTargets(database.kind, run.results, run.base, run.remittance, run.peakRssMb);
    const command = serverUrl ? `DATABASE_URL=${redactUrl(serverUrl)} npm run bench` : 'npm run bench';
    const overrides = Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_')).map(([k, v]) => `${k}=${v} `).join('');
    const body = [
      `## ${database.kind === 'postgres' ? 'PostgreSQL' : 'Embedded database (PGlite)'}`,
      '',
      `Command: \`${overrides}${command}\` — ${new Date(startedAt).toISOString()}, whole run ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`,
      '',
      machineDescription({ kind: database.kind, location: database.location, version: run.databaseVersion, loadAtStart: loadAtStart ?? 0 }),
      '',
      `${CONNECTIONS} connections per workload, ${timing.warmupSeconds} s warm-up then ${timing.seconds} s measured; fresh X-Correlation-ID on every request and fresh transaction.id on every donation. ` +
        `Each baseline runs right after the service's run of the same workload (on the embedded database the donations baseline waits for the service to stop). ` +
        `Service log level ${process.env.LOG_LEVEL || 'info'}; ${database.kind === 'postgres' ? `pool size ${poolMax}` : 'one in-process PGlite connection'} (the baseline's too). ` +
        `Quotas on: the demo partner's quota is ${BENCH_QUOTA_LIMIT.toLocaleString('en-US')} requests per window (QUOTA_DEFAULT_LIMIT at first start), so no request is refused. ` +
        `The ${REMITTANCE_DONATIONS.toLocaleString('en-US')} donations of the remittance batch are created through POST /donations (those of the donations workload, topped up). One-shot rows give their measurement in the p50 column.`,
      '',
      table(rows),
      '',
      cpuLine(run.results, run.base),
      '',
      'Targets:',
      targetsList(targets),
    ].join('\n');
    process.stdout.write(`\n${body}\n`);
    if (!only) writeSection(join(repoRoot, 'BENCHMARKS.md'), database.kind, body);
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
    cpuProfileDir: process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined,
    nodeArgs: process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean),
  });
  const basePath = new URL(service.baseUrl).pathname.replace(/\/$/, '');
  const results: Record<string, LoadResult> = {};
  const base: Record<string, LoadResult> = {};
  let remittance: RemittanceResult | null = null;
  let peakRssMb: number | null = null;
  let databaseVersion = 'unknown';
  const memory = () => {
    const { rssMb, peakMb } = service.memory();
    return `service RSS ${Math.round(rssMb)} MB, peak ${Math.round(peakMb)} MB`;
  };
  const creds = service.credentials;
  const references: string[] = [];
  const onService = (request: LoadSpec['request']): LoadSpec => ({ origin: service.origin, connections: CONNECTIONS, request });
  const runService = async (key: string, request: LoadSpec['request']) => {
    if (!wanted(key)) return;
    progress(`${key} (${memory()})`);
    results[key] = await measure(onService(request), timing, service.pid);
    progress(`  ${describe(results[key])}`);
  };
  const runBaseline = async (key: string, baseline: RunningBaseline, request: LoadSpec['request']) => {
    if (!wanted(key)) return;
    base[key] = await measure({ origin: baseline.origin, connections: CONNECTIONS, request }, timing, baseline.pid);
    progress(`  baseline: ${describe(base[key])}`);
  };
  const donationsBaseline = async () => {
    const baseline = await startBaseline({ repoRoot, workDir, database, poolMax, bodies: { ping: null, fundraisers: null } });
    databaseVersion = baseline.databaseVersion;
    try {
      await runBaseline('donations', baseline, donationRequest(`${basePath}/donations`, null));
    } finally {
      await baseline.stop();
    }
  };

  try {
    const bodies = {
      ping: await fetchJson(`${service.origin}${pingPath(basePath)}`, creds),
      fundraisers: await fetchJson(`${service.origin}${fundraisersPath(basePath)}`, creds),
    };
    const bare = await startBaseline({ repoRoot, workDir, database: null, poolMax, bodies });
    try {
      await runService('ping', getRequest(pingPath(basePath), creds));
      await runBaseline('ping', bare, getRequest(pingPath(basePath), null));
      await runService('fundraisers', getRequest(fundraisersPath(basePath), creds));
      await runBaseline('fundraisers', bare, getRequest(fundraisersPath(basePath), null));
    } finally {
      await bare.stop();
    }
    await runService('accounts', getRequest(accountPath(basePath), creds));
    await runService('donations', donationRequest(`${basePath}/donations`, creds, (id) => references.push(id)));
    if (database.kind === 'postgres') await donationsBaseline();
    await runService('mandates', mandateRequest(`${basePath}/mandates`, creds));
    if (wanted('remittance')) {
      const missing = REMITTANCE_DONATIONS - references.length;
      progress(`remittance: creating ${Math.max(0, missing)} more donations, then one batch of ${REMITTANCE_ENTRIES} entries`);
      if (missing > 0) await send(onService(donationRequest(`${basePath}/donations`, creds, (id) => references.push(id))), missing);
      progress(`remittance: posting the batch (${memory()})`);
      remittance = await postRemittanceBatch(service.baseUrl, creds, references);
    }
  } finally {
    progress(`stopping the service (${memory()})`);
    peakRssMb = await service.stop();
  }
  if (database.kind === 'embedded') await donationsBaseline();
  return { results, base, remittance, peakRssMb, databaseVersion };
}

async function fetchJson(url: string, credentials: Credentials): Promise<unknown> {
  const response = await fetch(url, { headers: { 'x-correlation-id': crypto.randomUUID(), client_id: credentials.clientId, client_secret: credentials.clientSecret } });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** CPU time per request of the serving process (steadier than req/s when the machine is shared). */
function cpuLine(service: Record<string, LoadResult>, base: Record<string, LoadResult>): string {
  const us = (r: LoadResult | undefined) => (r?.cpuUsPerRequest == null ? undefined : `${Math.round(r.cpuUsPerRequest)}`);
  const names: Record<string, string> = { ping: 'GET /ping', fundraisers: 'GET /fundraisers', accounts: 'GET /accounts/{id}', donations: 'POST /donations', mandates: 'POST /mandates' };
  const parts = Object.entries(names).flatMap(([key, name]) => {
    const own = us(service[key]);
    if (own === undefined) return [];
    const baseline = us(base[key]);
    return [`${name} ${own}${baseline === undefined ? '' : ` (baseline ${baseline})`}`];
  });
  return `Server CPU per request, user + system, µs: ${parts.join('; ')}.`;
}

function describe(result: LoadResult): string {
  const cpu = result.cpuUsPerRequest === null ? '' : `, server CPU ${Math.round(result.cpuUsPerRequest)} µs per request`;
  return `${Math.round(result.rps)} req/s, p99 ${result.p99} ms${cpu}`;
}


function buildRows(service: Record<string, LoadResult>, base: Record<string, LoadResult>, remittance: RemittanceResult | null, peakRssMb: number | null): Row[] {
  const row = (workload: string, key: string): Row[] => {
    const r = service[key];
    return r ? [{ workload, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, baselineRps: base[key]?.rps }] : [];
  };
  const rows = [
    ...row('GET /ping', 'ping'),
    ...row('GET /fundraisers', 'fundraisers'),
    ...row('GET /accounts/{id}', 'accounts'),
    ...row('POST /donations', 'donations'),
    ...row('POST /mandates (simulator)', 'mandates'),
  ];
  if (remittance) {
    const batch = `remittance batch, ${REMITTANCE_ENTRIES.toLocaleString('en-US')} entries / ${REMITTANCE_DONATIONS.toLocaleString('en-US')} donations`;
    rows.push({ workload: `${batch}: time to 202`, p50: `${Math.round(remittance.acceptedMs)} ms`, errors: remittance.reconciledMs === null ? remittance.errors : 0 });
    rows.push({
      workload: `${batch}: time until reconciled`,
      p50: remittance.reconciledMs === null
        ? `not measured: ${remittance.finalStatus}`
        : `${Math.round(remittance.reconciledMs)} ms (${remittance.finalStatus}; worker pick-up ${remittance.pickupMs ?? '?'} ms; ` +
          `late by ≤ ${POLL_INTERVAL_MS} ms poll + ${Math.round(remittance.slowestPollMs)} ms read)`,
      errors: remittance.reconciledMs === null ? undefined : remittance.errors,
    });
  }
  rows.push({ workload: 'peak RSS of the service process (VmHWM)', p50: peakRssMb === null ? 'n/a' : `${Math.round(peakRssMb)} MB` });
  return rows;
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
