/**
 * `npm run soak -- --minutes N [--rate R] [--statement-minutes S]`: the service under sustained mixed partner traffic
 * on PostgreSQL, with the money loop's background work beside it (soak/background.ts: plans and the sandbox clock,
 * receipts mailed to a local SMTP server, a bank statement imported every S minutes, default 5).
 *
 * Starts the real service as production runs it (src/server.ts in a child process, on a fresh database created on
 * the server of DATABASE_URL and dropped afterwards), probes the capacity of the issue-19 mix (closed loop, until
 * the batches it posted are reconciled and their receipts mailed: soak/capacity.ts), then drives the mix open-loop (requests on a timer, whatever the answers) at half of it (or R requests/s) for N
 * minutes. Every 10 s it records requests, errors, p50/p99, the service's RSS, every queue's depth and oldest age,
 * and the database size. At the end: a summary against the soak targets, the windows as JSON and a chart (SVG),
 * in docs/soak/, and a section of BENCHMARKS.md.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { connectDatabase, redactUrl } from '../src/infrastructure/db/connect.js';
import { readQueueStats } from '../src/services/queues/queue-stats.js';
import { createBenchDatabase } from '../bench/database.js';
import { machineDescription, writeSection } from '../bench/report.js';
import { buildService, startService } from '../bench/service.js';
import { startSmtpSink } from '../bench/smtp-sink.js';
import { prepareDatabase, reuseHistory } from '../bench/history/prepare.js';
import { BackgroundWork } from './background.js';
import { autovacuumProblems, drainBackground, probe, PROBE_CONNECTIONS, PROBE_SECONDS } from './capacity.js';
import { drawChart } from './chart.js';
import { createClient, type Outcome } from './client.js';
import { DonationPool, MixSource, mandateBody, MIX, BATCH_ENTRIES, SPARE_PREFIX } from './mix.js';
import { batchTimes, DRAIN_TIMEOUT_MS, evaluate, percentile, summaryMarkdown, type SoakResult } from './summary.js';
import { WINDOW_SECONDS, WindowRecorder, type Window } from './windows.js';

const MAX_IN_FLIGHT = 2000;
const progress = (message: string) => process.stderr.write(`[soak] ${message}\n`);

async function main() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      rate: { type: 'string' },
      'statement-minutes': { type: 'string' },
      'allow-autovacuum-off': { type: 'boolean' },
    },
  });
  const minutes = Number(values.minutes ?? 30);
  const statementMinutes = Number(values['statement-minutes'] ?? 5);
  const fixedRate = values.rate ? Number(values.rate) : null;
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('set DATABASE_URL to a PostgreSQL server: the soak runs on PostgreSQL');
  if (!(minutes > 0) || (fixedRate !== null && !(fixedRate > 0))) throw new Error('--minutes and --rate take numbers');

  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const workDir = mkdtempSync(join(tmpdir(), 'fundraiser-soak-'));
  const [loadAtStart] = loadavg();
  buildService(repoRoot);
  const startedAt = new Date();
  // SOAK_HISTORY=1: the soak starts from the three-season history of bench:history (BENCH_HISTORY_SCALE applies),
  // loaded here, or with BENCH_HISTORY_URL the one an earlier `bench:history` kept (BENCH_KEEP_DATABASE), as it is.
  const reusedUrl = process.env.SOAK_HISTORY ? process.env.BENCH_HISTORY_URL : undefined;
  const reused = reusedUrl ? await reuseHistory(reusedUrl) : null;
  const database = reused?.database ?? (await createBenchDatabase(serverUrl, workDir));
  if (database.kind !== 'postgres') throw new Error('unreachable');
  const history =
    reused ??
    (process.env.SOAK_HISTORY
      ? await prepareDatabase({ repoRoot, workDir, database, name: 'soak', withHistory: true, progress })
      : null);
  // Receipts leave through a local SMTP server: outside production only to a QA inbox (docs/receipts.md).
  const smtp = await startSmtpSink();
  const service = await startService({
    repoRoot,
    workDir,
    database,
    ...(history ? { credentials: history.credentials } : {}),
    // As the bench's receipts workload runs it (bench/receipts.ts): a season's receipts need more than two at once.
    env: { SMTP_URL: smtp.url, MAIL_REDIRECT_TO: 'qa@foundation.test', MAIL_CONCURRENCY: '8' },
    // As in the bench: the service writes a CPU profile there when it stops.
    cpuProfileDir: process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined,
  });
  const observer = await connectDatabase({ databaseUrl: database.url, poolMax: 2 });
  const client = createClient(service.origin, service.credentials);
  try {
    const basePath = new URL(service.baseUrl).pathname.replace(/\/$/, '');
    const mandateIds = await createMandates(client, basePath);
    const spare = new DonationPool();
    const mix = () => new MixSource(basePath, mandateIds, spare);
    const version = (await sql<{ v: string }>`select version() as v`.execute(observer.db)).rows[0]!.v;
    const autovacuum = await requireAutovacuum(observer, values['allow-autovacuum-off'] ?? false);

    await topUp(observer, spare, 60_000);
    progress(`probing the capacity of the mix: ${PROBE_CONNECTIONS} connections, closed loop, ${PROBE_SECONDS} s`);
    const probed = await probe(client, mix(), observer.db, smtp, DRAIN_TIMEOUT_MS);
    const capacity = probed.capacity;
    const rate = fixedRate ?? Math.max(1, Math.round(capacity / 2));
    progress(
      `capacity ${Math.round(capacity)} requests/s (answered ${Math.round(probed.requestsPerSecond)}/s for ` +
        `${PROBE_SECONDS} s, then ${probed.reconciledMs} ms until its ${probed.batches} batches were reconciled, ` +
        `${probed.drainMs} ms until their ${probed.receiptsMailed} receipts were mailed); ` +
        `driving ${rate} requests/s for ${minutes} min`,
    );
    // Every batch takes BATCH_ENTRIES donations; those the run records itself cover about half.
    const needed = Math.ceil(
      rate * minutes * 60 * (MIX.find(([k]) => k === 'remittance batch')![1] / 100) * BATCH_ENTRIES,
    );
    await topUp(observer, spare, needed);
    // The bulk insert's aftermath (statistics, dirty pages) settled before the clock starts, not in the first minutes.
    await sql`vacuum analyze donations`.execute(observer.db);
    await sql`checkpoint`.execute(observer.db);
    await drainBackground(observer.db, DRAIN_TIMEOUT_MS);

    const remitted: string[] = [];
    const background = new BackgroundWork(
      { repoRoot, workDir, database, baseUrl: service.baseUrl },
      service.credentials,
      smtp,
      remitted,
    );
    await background.start(statementMinutes);
    const run = await drive(
      client,
      new MixSource(basePath, mandateIds, spare, remitted),
      rate,
      minutes,
      service.pid,
      observer,
    );
    progress('stopped sending; waiting for the background work and the queues to drain');
    const backgroundSummary = await background.stop();
    const drainMs = (await drainBackground(observer.db, DRAIN_TIMEOUT_MS)).ms;
    const batches = await batchTimes(observer.db, run.measuredFrom);
    const result: SoakResult = {
      command: `${historyKnobs()}DATABASE_URL=${redactUrl(serverUrl)} npm run soak -- --minutes ${minutes}${fixedRate ? ` --rate ${fixedRate}` : ''}`,
      startedAt: startedAt.toISOString(),
      machine:
        machineDescription({ kind: 'postgres', location: database.location, version, loadAtStart: loadAtStart ?? 0 }) +
        `\n- autovacuum: ${autovacuum.length === 0 ? 'on' : autovacuum.join('; ')}`,
      capacity,
      probe: probed,
      autovacuum,
      fixedRate: fixedRate !== null,
      rate,
      minutes,
      windows: run.windows,
      thirds: run.thirds,
      batches,
      drainMs,
      background: backgroundSummary,
      targets: [],
    };
    result.targets = evaluate(result);
    writeOutputs(
      repoRoot,
      result,
      await drawChart(
        run.windows,
        `Soak: ${rate} requests/s of the mixed partner traffic for ${minutes} min on PostgreSQL`,
      ),
    );
  } finally {
    client.close();
    await observer.close();
    await service.stop();
    await smtp.close();
    await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

type Client = ReturnType<typeof createClient>;

async function createMandates(client: Client, basePath: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    const outcome = await client.send({
      kind: 'mandate',
      method: 'POST',
      path: `${basePath}/mandates`,
      body: mandateBody(),
    });
    const id = (outcome.body as { data?: { items?: { mandateId?: string } } }).data?.items?.mandateId;
    if (!id) throw new Error(`POST /mandates answered ${outcome.status}`);
    ids.push(id);
  }
  return ids;
}

/**
 * Tops the pool up to `needed` donations, in statements of 100,000 rows: a 30-minute run needs ~2 million, more than
 * one statement writes within the statement timeout.
 */
async function topUp(observer: Awaited<ReturnType<typeof connectDatabase>>, spare: DonationPool, needed: number) {
  while (spare.size < needed) await insertDonations(observer, spare.grow(Math.min(100_000, needed - spare.size)));
}

/** The history's settings of this run, as they prefix its command. */
function historyKnobs(): string {
  if (!process.env.SOAK_HISTORY) return '';
  return ['SOAK_HISTORY', 'BENCH_HISTORY_SCALE', 'BENCH_HISTORY_URL']
    .filter((key) => process.env[key])
    .map((key) => `${key}=${key === 'BENCH_HISTORY_URL' ? redactUrl(process.env[key]!) : process.env[key]} `)
    .join('');
}

/** Donations for the batches to settle, written straight into the database (HTTP would take minutes). */
async function insertDonations(
  observer: Awaited<ReturnType<typeof connectDatabase>>,
  { from, to }: { from: number; to: number },
) {
  await sql`
    insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
                           donor_email, donor_first_name, donor_last_name, address_postal_code, amount_cents,
                           request_hash, correlation_id)
    select ${SPARE_PREFIX} || i, c.partner_id, c.environment, false, 'Storefront App', a.id, '10000001',
           'soak@example.com', 'Soak', 'Donor', '2000', 2050, 'soak', gen_random_uuid()
    from generate_series(${from}::int, ${to}::int) as i,
         (select partner_id, environment from credentials c join partner_channels pc using (partner_id)
          where pc.channel = 'Storefront App' limit 1) as c,
         accounts a
    where a.member_number = '10000001'`.execute(observer.db);
}

/** Open loop: request i is sent at i / rate seconds, whatever happened to the ones before. */
async function drive(
  client: Client,
  source: MixSource,
  rate: number,
  minutes: number,
  pid: number,
  observer: Awaited<ReturnType<typeof connectDatabase>>,
) {
  const measuredFrom = new Date();
  const windows: Window[] = [];
  const thirds: number[][] = [[], [], []];
  const recorder = new WindowRecorder();
  const totalMs = minutes * 60_000;
  const started = performance.now();
  let sent = 0;
  let inFlight = 0;
  const onOutcome = (outcome: Outcome, sentAt: number) => {
    inFlight -= 1;
    source.learn(outcome);
    recorder.record(outcome);
    thirds[Math.min(2, Math.floor(((sentAt - started) / totalMs) * 3))]!.push(outcome.ms);
  };
  let nextWindow = started + WINDOW_SECONDS * 1000;
  while (performance.now() - started < totalMs) {
    const now = performance.now();
    const due = Math.floor(((now - started) / 1000) * rate);
    for (; sent < due; sent += 1) {
      if (inFlight >= MAX_IN_FLIGHT) {
        recorder.skipped += 1;
        continue;
      }
      inFlight += 1;
      const sentAt = performance.now();
      void client.send(source.next()).then((outcome) => onOutcome(outcome, sentAt));
    }
    if (now >= nextWindow) {
      const at = Math.round((nextWindow - started) / 1000);
      nextWindow += WINDOW_SECONDS * 1000;
      void gauges(pid, observer).then((g) => {
        const window = recorder.close(at, g);
        windows.push(window);
        progress(
          `${at}s: ${window.requestsPerSecond.toFixed(0)} req/s, p99 ${window.p99} ms, errors ${window.errors}, ` +
            `RSS ${window.rssMb?.toFixed(0)} MB, reconciliation waiting ${window.queues['remittance-reconciliation']?.waiting ?? '?'}, DB ${window.databaseMb.toFixed(0)} MB`,
        );
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const last = recorder.close(Math.round((performance.now() - started) / 1000), await gauges(pid, observer));
  if (last.requests > 0) windows.push(last);
  windows.sort((a, b) => a.at - b.at);
  return { windows, thirds, measuredFrom };
}

async function gauges(pid: number, observer: Awaited<ReturnType<typeof connectDatabase>>) {
  const queues = Object.fromEntries(
    (await readQueueStats(observer.db)).map((q) => [
      q.queue,
      { waiting: q.waiting, oldestWaitingSeconds: q.oldestWaitingSeconds },
    ]),
  );
  const { rows } = await sql<{ bytes: number }>`select pg_database_size(current_database())::bigint as bytes`.execute(
    observer.db,
  );
  return { rssMb: rssMb(pid), queues, databaseMb: Number(rows[0]!.bytes) / 1024 ** 2 };
}

function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The soak's database must run autovacuum as production does (capacity.ts, autovacuumProblems): refused otherwise,
 * unless `--allow-autovacuum-off`, whose run then misses the target that names it. Returns what is wrong.
 */
async function requireAutovacuum(observer: Awaited<ReturnType<typeof connectDatabase>>, allowed: boolean) {
  const problems = await autovacuumProblems(observer.db);
  if (problems.length === 0) return problems;
  const message = `${problems.join('; ')}: production runs it, and without it the latency creeps as dead rows pile up`;
  if (!allowed) throw new Error(`${message} (turn it on, or pass --allow-autovacuum-off to run anyway)`);
  progress(message);
  return problems;
}

/** The soak's files and BENCHMARKS.md section: a soak from the history has its own, beside the fresh database's. */
function writeOutputs(repoRoot: string, result: SoakResult, svg: string) {
  const dir = join(repoRoot, 'docs', 'soak');
  mkdirSync(dir, { recursive: true });
  const name = process.env.SOAK_HISTORY ? 'soak-history' : 'soak';
  // The raw latencies of each third are only needed for the p99s; the file keeps those.
  const { thirds, ...kept } = result;
  const p99ByThird = thirds.map((latencies) => percentile(latencies, 0.99));
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ ...kept, p99ByThird }, null, 2)}\n`);
  writeFileSync(join(dir, `${name}.svg`), svg);
  const markdown = summaryMarkdown(result, `docs/soak/${name}.svg`, `docs/soak/${name}.json`);
  writeSection(join(repoRoot, 'BENCHMARKS.md'), process.env.SOAK_HISTORY ? 'soak:history' : 'soak', markdown);
  process.stdout.write(`\n${markdown}\n`);
}

main().catch((err) => {
  process.stderr.write(`soak failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
