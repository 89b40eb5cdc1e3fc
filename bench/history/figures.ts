import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/index.js';
import { openDatabase } from '../../src/composition.js';
import { runCli } from '../../src/cli/main.js';
import { measureBatchThroughput } from '../batch-throughput.js';
import type { BenchDatabase } from '../database.js';
import { measureDebits } from '../debits.js';
import { measurePair } from '../load.js';
import { medianRun, type MoneyResult } from '../money-support.js';
import { measureReceiptsOn } from '../receipts.js';
import { measureReport, prepareReport } from '../remittance-report.js';
import { startService, type RunningService } from '../service.js';
import {
  importStatementFile,
  prepareStatementEntries,
  statementFile,
  writeStatementFile,
  type StatementEntries,
} from '../statement.js';
import { accountPath, donationRequest, fundraisersPath, getRequest, pingPath, type Credentials } from '../workloads.js';

/**
 * The bench's figures on two databases, the empty one and the history, each a cost (milliseconds, or the time per
 * request of a load workload) so that history ÷ empty is the factor the history costs: the partner request mix, the
 * background work, the report, the console. Every figure reuses the bench's own workload (bench/*.ts), scaled down
 * by the knobs bench:history sets. The machine is shared and its speed drifts by the second, so the two sides are
 * measured side by side, never one whole side after the other: both services run at once; the load workloads
 * alternate between them in slices (load.ts, measurePair); the console's pages are read in turn; each one-shot
 * figure is taken on one side then at once on the other.
 */

export interface Figure {
  key: string;
  label: string;
  /** The cost compared: ms for a one-shot figure, µs per request (1 / throughput) for a load workload. */
  cost: number | null;
  /** What is shown: the measurement as read. */
  shown: string;
  error: string | null;
}

const CONNECTIONS = 50;
const SLICES = 4;
const CONSOLE_READS = 7;
/** One per run: a history database used again already has the last run's. */
const OPERATOR = `bench-history-${randomUUID().slice(0, 8)}@example.org`;
const PASSWORD = 'a long enough bench password';

export interface Side {
  /** `empty` or `history`: names the service's logs. */
  name: string;
  database: BenchDatabase;
  credentials: Credentials;
  /** Its own work directory (statement files, logs). */
  workDir: string;
}

export interface FigureContext {
  repoRoot: string;
  sides: [Side, Side];
  seconds: number;
  progress: (message: string) => void;
}

type Pair = [Figure[], Figure[]];

export async function measureFigures(context: FigureContext): Promise<Pair> {
  const { progress, sides, repoRoot } = context;
  const figures: Pair = [[], []];
  const add = (i: number, figure: Figure) => {
    figures[i]!.push(figure);
    progress(`  ${sides[i]!.name}: ${figure.label}: ${figure.error ?? figure.shown}`);
  };
  /**
   * A one-shot figure, taken on the empty database then at once on the history; one that fails (a statement
   * timeout on the history, say) is a figure with its error, and the run goes on.
   */
  const each = async (key: string, label: string, work: (i: number) => Promise<Figure>) => {
    for (const i of [0, 1])
      add(
        i,
        await work(i).catch((err: unknown) => ({
          key,
          label,
          cost: null,
          shown: '—',
          error: (err as Error).message,
        })),
      );
  };
  progress('receipts: a production-like service, live donations settled, receipted and mailed');
  await each('receipts', 'receipts issued and accepted by SMTP', async (i) =>
    moneyFigure('receipts', 'receipts issued and accepted by SMTP', await receipts(repoRoot, sides[i]!, progress)),
  );
  for (const side of sides) await createOperator(side.database);
  const services: RunningService[] = [];
  const statements: StatementEntries[] = [];
  const peaks: number[] = [];
  try {
    for (const side of sides)
      services.push(
        await startService({
          repoRoot,
          workDir: side.workDir,
          database: side.database,
          credentials: side.credentials,
          logName: `service-${side.name}.log`,
          // The untimed setup of the debits settles a run's payments in one request (bench/money.ts).
          env: { CONNECTION_IDLE_TIMEOUT_MS: '600000' },
        }),
      );
    const pair = services as [RunningService, RunningService];
    await requestMix(context, pair, add);
    await consolePages(pair, add);
    progress('batches: 20-entry batches posted at once, until reconciled');
    await each('batches', 'batches of 20 entries reconciled', async (i) => {
      const service = pair[i]!;
      const throughput = await measureBatchThroughput(service.origin, service.baseUrl, service.credentials);
      return {
        key: 'batches',
        label: `${throughput.batches} batches of 20 entries reconciled`,
        cost: throughput.completedMs,
        shown: `${Math.round(throughput.completedMs ?? 0)} ms; ${throughput.detail}`,
        error: throughput.errors > 0 ? `${throughput.errors} errors: ${throughput.detail}` : null,
      };
    });
    progress('debits: plans due tomorrow, the sandbox clock a day on');
    await each('debits', 'due debits created and submitted', async (i) =>
      moneyFigure('debits', 'due debits created and submitted', await measureDebits(pair[i]!, progress)),
    );
    progress('report: one large batch posted and reconciled, then its first page and its CSV');
    for (const i of [0, 1]) {
      const service = pair[i]!;
      const prepared = await prepareReport(service.baseUrl, service.credentials);
      add(i, {
        key: 'big-batch',
        label: `${process.env.BENCH_REPORT_ENTRIES}-entry batch posted and reconciled`,
        cost: prepared.error ? null : prepared.reconcileMs,
        shown: `${Math.round(prepared.reconcileMs)} ms (POST ${Math.round(prepared.postMs)} ms)`,
        error: prepared.error,
      });
      const report = await measureReport(service.baseUrl, service.credentials, prepared, {
        rssMb: () => service.memory().rssMb,
        pid: service.pid,
      });
      add(i, {
        key: 'report-page',
        label: "the batch report's first page (p50)",
        cost: report.error ? null : report.firstPageP50Ms,
        shown: `${report.firstPageP50Ms.toFixed(1)} ms`,
        error: report.error,
      });
      add(i, {
        key: 'report-csv',
        label: "the batch report's CSV",
        cost: report.error ? null : report.csvMs,
        shown: `${Math.round(report.csvMs)} ms, ${report.csvLines} lines`,
        error: report.error,
      });
    }
    progress('statement: entries for it (donations, batches, reconciled)');
    for (const service of pair) statements.push(await prepareStatementEntries(service));
  } finally {
    for (const service of services) peaks.push((await service.stop()) ?? 0);
  }
  progress('statement: imported and matched (the CLI, no service running)');
  await each('statement', 'statement imported and matched', async (i) => {
    const file = statementFile(sides[i]!.workDir, 0);
    writeStatementFile(file, statements[i]!);
    const run = await importStatementFile(repoRoot, sides[i]!.database, file);
    return {
      key: 'statement',
      label: `${process.env.BENCH_STATEMENT_LINES}-line statement imported and matched`,
      cost: run.errors > 0 ? null : run.ms,
      shown: `${Math.round(run.ms)} ms; ${run.detail}`,
      error: run.errors > 0 ? run.detail : null,
    };
  });
  for (const i of [0, 1])
    add(i, {
      key: 'peak-rss',
      label: "the service's peak RSS",
      cost: peaks[i] ?? null,
      shown: `${Math.round(peaks[i] ?? 0)} MB`,
      error: null,
    });
  return figures;
}

type Add = (i: number, figure: Figure) => void;

/** The partner request mix, each workload on both services in alternating slices: its cost is 1 / req/s. */
async function requestMix(context: FigureContext, services: [RunningService, RunningService], add: Add) {
  const timing = { seconds: context.seconds, warmupSeconds: 1 };
  const workloads = [
    ['ping', 'GET /ping', (base: string, c: Credentials) => getRequest(pingPath(base), c)],
    ['fundraisers', 'GET /fundraisers', (base: string, c: Credentials) => getRequest(fundraisersPath(base), c)],
    ['accounts', 'GET /accounts/{id}', (base: string, c: Credentials) => getRequest(accountPath(base), c)],
    ['donations', 'POST /donations', (base: string, c: Credentials) => donationRequest(`${base}/donations`, c)],
  ] as const;
  for (const [key, label, request] of workloads) {
    context.progress(`${label}: ${CONNECTIONS} connections, ${context.seconds} s on each side in ${SLICES} slices`);
    const specs = services.map((service) => ({
      origin: service.origin,
      connections: CONNECTIONS,
      request: request(new URL(service.baseUrl).pathname.replace(/\/$/, ''), service.credentials),
      pid: service.pid,
    }));
    const results = await measurePair([specs[0]!, specs[1]!], timing, SLICES);
    for (const [i, result] of results.entries())
      add(i, {
        key,
        label: `${label} at ${CONNECTIONS} connections (µs per request)`,
        cost: result.rps > 0 ? 1e6 / result.rps : null,
        shown: `${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
        error: result.errors > 0 ? `${result.errors} errors ${JSON.stringify(result.statuses)}` : null,
      });
  }
}

/** The console as an operator reads it: the dashboard, the searches, the operators' listings; p50 of reads in turn. */
async function consolePages(services: [RunningService, RunningService], add: Add) {
  const cookies = await Promise.all(services.map((service) => signIn(service.origin)));
  const pages = [
    ['console-dashboard', 'console: dashboard', '/console'],
    [
      'console-donation-search',
      'console: donations by donor e-mail',
      '/console/donations?email=donor123%40example.com',
    ],
    ['console-receipt-search', 'console: receipts search', '/console/receipts?q=donor123%40example.com'],
    ['console-account-search', 'console: fundraisers search', '/console/accounts?q=History'],
    ['console-donations', 'console: donations listing', '/console/donations'],
    ['console-remittances', 'console: remittances listing', '/console/remittances'],
    ['console-bank', 'console: bank lines', '/console/bank'],
    ['console-debits', 'console: debits listing', '/console/debits'],
    ['console-mail', 'console: mail outbox', '/console/mail'],
    ['console-audit', 'console: audit log', '/console/audit'],
  ] as const;
  for (const [key, label, path] of pages) {
    const times: [number[], number[]] = [[], []];
    const errors: (string | null)[] = [null, null];
    // The first read of each warms the page's code and the session cache.
    for (let read = 0; read <= CONSOLE_READS; read += 1)
      for (const i of [0, 1]) {
        if (errors[i]) continue;
        const t0 = performance.now();
        const response = await fetch(`${services[i]!.origin}${path}`, { headers: { cookie: cookies[i]! } });
        await response.text();
        if (response.status !== 200) errors[i] = `${path} answered ${response.status}`;
        else if (read > 0) times[i]!.push(performance.now() - t0);
      }
    for (const i of [0, 1]) {
      const sorted = times[i]!.sort((a, b) => a - b);
      const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
      add(i, {
        key,
        label: `${label} (p50)`,
        cost: errors[i] ? null : p50,
        shown: `${p50.toFixed(1)} ms`,
        error: errors[i] ?? null,
      });
    }
  }
}

/** An admin operator for the console, created through the CLI as an operator would (docs/cli.md). */
async function createOperator(database: BenchDatabase) {
  const config = loadConfig(
    database.kind === 'postgres' ? { DATABASE_URL: database.url } : { DATA_DIR: database.dataDir },
  );
  const opened = await openDatabase(config);
  try {
    const code = await runCli(['operators', 'create', OPERATOR, '--role', 'admin', '--password-stdin'], {
      database: opened,
      env: {},
      defaultOperator: () => 'bench',
      readStdin: async () => `${PASSWORD}\n`,
      stdout: () => undefined,
      stderr: () => undefined,
    });
    if (code !== 0) throw new Error(`fundraiser-admin operators create exited ${code}`);
  } finally {
    await opened.close();
  }
}

/** Signs in through the login form as a browser does; the session cookie. */
async function signIn(origin: string): Promise<string> {
  const form = await fetch(`${origin}/console/login`);
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  const loginCookie = cookieOf(form, 'console_login_csrf');
  if (!token || !loginCookie) throw new Error('the console login form had no CSRF token');
  const response = await fetch(`${origin}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `console_login_csrf=${loginCookie}` },
    body: new URLSearchParams({ _csrf: token, email: OPERATOR, password: PASSWORD }).toString(),
  });
  const session = cookieOf(response, 'console_session');
  if (response.status !== 303 || !session) throw new Error(`console sign-in answered ${response.status}`);
  return `console_session=${session}`;
}

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

async function receipts(repoRoot: string, side: Side, progress: (message: string) => void): Promise<MoneyResult> {
  return measureReceiptsOn({ repoRoot, workDir: side.workDir, database: side.database }, side.credentials, progress);
}

function moneyFigure(key: string, label: string, result: MoneyResult): Figure {
  const m = medianRun(result);
  const errors = result.runs.reduce((sum, run) => sum + run.errors, 0);
  return {
    key,
    label,
    cost: m && !result.error && errors === 0 ? m.median.ms : null,
    shown: m ? `${Math.round(m.median.ms)} ms (${m.median.perSecond?.toFixed(0) ?? '?'}/s); ${m.median.detail}` : '—',
    error: result.error ?? (errors > 0 ? `${errors} items not done or done twice` : null),
  };
}
