import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/infrastructure/db/schema.js';
import type { Target } from '../bench/report.js';
import type { BackgroundSummary } from './background.js';
import type { ProbeResult } from './capacity.js';
import { median, type Window } from './windows.js';

export interface BatchTimes {
  posted: number;
  completed: number;
  /** 202 → completed, database clock (created_at → completed_at), in ms. */
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface SoakResult {
  command: string;
  startedAt: string;
  machine: string;
  capacity: number;
  /** The capacity probe: its requests, and the background work it created and waited for. */
  probe: ProbeResult;
  /** What keeps autovacuum from running on the soak's database (capacity.ts); empty when it runs. */
  autovacuum: string[];
  /** Driven at a rate given by --rate rather than half the probed capacity. */
  fixedRate: boolean;
  rate: number;
  minutes: number;
  windows: Window[];
  /** Latencies (ms) of the requests sent in each third of the run. */
  thirds: number[][];
  batches: BatchTimes;
  /** After the last request, how long until no job waited and no batch was unfinished. */
  drainMs: number;
  /** The money loop's work beside the traffic (soak/background.ts). */
  background: BackgroundSummary;
  targets: Target[];
}

/** Every batch posted during the measured run, and how long each took from its 202 to completion. */
export async function batchTimes(db: Kysely<DB>, since: Date): Promise<BatchTimes> {
  const { rows } = await sql<{
    posted: number;
    completed: number;
    p50: number | null;
    p99: number | null;
    max: number | null;
  }>`
    select count(*)::int as posted,
           count(*) filter (where status like 'completed%')::int as completed,
           percentile_cont(0.5) within group (order by extract(epoch from completed_at - created_at) * 1000) as p50,
           percentile_cont(0.99) within group (order by extract(epoch from completed_at - created_at) * 1000) as p99,
           max(extract(epoch from completed_at - created_at) * 1000) as max
    from remittance_batches where created_at >= ${since}`.execute(db);
  const r = rows[0]!;
  const ms = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  return { posted: r.posted, completed: r.completed, p50Ms: ms(r.p50), p99Ms: ms(r.p99), maxMs: ms(r.max) };
}

/** How long run.ts waits for the queues to drain after the last request. */
export const DRAIN_TIMEOUT_MS = 120_000;

export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
}

/** The soak targets, worded as BENCHMARKS.md lists them. */
export function evaluate(result: SoakResult): Target[] {
  const { windows, minutes, batches } = result;
  const errors = windows.reduce((sum, w) => sum + w.errors + w.skipped, 0);
  const requests = windows.reduce((sum, w) => sum + w.requests, 0);
  const end = windows.at(-1)?.at ?? 0;
  const rss = (from: number, to: number) =>
    median(windows.filter((w) => w.at > from && w.at <= to && w.rssMb !== null).map((w) => w.rssMb!));
  const early = rss(120, 240);
  const late = rss(end - 180, end);
  const growth = early > 0 ? late / early - 1 : 0;
  const short = minutes < 7 ? ' — run shorter than 7 min: the two spans overlap, not a verdict' : '';
  const [first, , last] = result.thirds.map((t) => percentile(t, 0.99));
  const scale = minutes === 30 ? '' : ` (a ${minutes}-min run, not the 30 min the target names)`;
  return [
    {
      description: 'soak 30 min on PostgreSQL: 0 errors',
      met: minutes >= 30 ? errors === 0 : null,
      actual: `${errors} errors of ${requests.toLocaleString('en-US')} requests${scale}`,
    },
    {
      description: 'soak: RSS growth < 10%',
      met: minutes >= 7 ? growth < 0.1 : null,
      actual: `median RSS minutes 2–4 ${early.toFixed(0)} MB, last 3 min ${late.toFixed(0)} MB: ${(growth * 100).toFixed(1)}%${short}`,
    },
    {
      description: 'soak: p99 flat',
      met: minutes >= 30 ? last! <= 1.5 * first! && last! <= 50 : null,
      actual: `p99 first third ${first!.toFixed(1)} ms, last third ${last!.toFixed(1)} ms${scale}`,
    },
    {
      description: 'soak: every remittance batch completed, p99 202 → completed ≤ 5 s',
      met: minutes >= 30 ? batches.completed === batches.posted && (batches.p99Ms ?? Infinity) <= 5000 : null,
      actual: `${batches.completed} of ${batches.posted} completed; 202 → completed p50 ${batches.p50Ms ?? '?'} ms, p99 ${batches.p99Ms ?? '?'} ms, max ${batches.maxMs ?? '?'} ms${scale}`,
    },
    ...targetsOnGrowth(result),
    {
      description: 'soak: every queue drained after the run, the background work without errors',
      met: minutes >= 30 ? result.drainMs < DRAIN_TIMEOUT_MS && result.background.errors.length === 0 : null,
      actual: `drained ${(result.drainMs / 1000).toFixed(1)} s after the last request; ${result.background.errors.length} background errors${scale}`,
    },
  ];
}

/**
 * The soak's targets on a grown database: the last third's p99 against the first with autovacuum running, and every
 * batch completed within 5 s at half a capacity that counted the background work (capacity.ts).
 */
function targetsOnGrowth(result: SoakResult): Target[] {
  const { batches, probe } = result;
  const [first, , last] = result.thirds.map((t) => percentile(t, 0.99));
  const short =
    result.minutes < 10 ? ` (a ${result.minutes}-min run, not a verdict on the 10 min and more it is for)` : '';
  const ratio = first! > 0 ? last! / first! : 0;
  const autovacuumOn = result.autovacuum.length === 0;
  const atHalf = !result.fixedRate;
  const allCompleted = batches.completed === batches.posted;
  return [
    {
      description: 'soak: p99 last third ≤ 1.2 × first third with autovacuum on',
      met: !autovacuumOn ? false : result.minutes >= 10 ? ratio <= 1.2 : null,
      actual:
        `p99 first third ${first!.toFixed(1)} ms, last third ${last!.toFixed(1)} ms: ${ratio.toFixed(2)}×; ` +
        `autovacuum ${autovacuumOn ? 'on' : `not running (${result.autovacuum.join('; ')})`}${short}`,
    },
    {
      description: 'soak: every batch completed ≤ 5 s at half the capacity probed with background work counted',
      met: !atHalf ? null : result.minutes >= 10 ? allCompleted && (batches.maxMs ?? Infinity) <= 5000 : null,
      actual:
        `${batches.completed} of ${batches.posted} completed, 202 → completed max ${batches.maxMs ?? '?'} ms; ` +
        `${atHalf ? 'driven at half' : `driven at a fixed ${result.rate} requests/s, not half`} of ${Math.round(result.capacity)} requests/s probed ` +
        `(${Math.round(probe.requestsPerSecond)}/s answered for ${probe.sendingSeconds.toFixed(0)} s, then ${(probe.reconciledMs / 1000).toFixed(1)} s until its ` +
        `${probe.batches} batches were reconciled, ${(probe.drainMs / 1000).toFixed(1)} s until their ${probe.receiptsMailed} receipts were mailed)${short}`,
    },
  ];
}

export function summaryMarkdown(result: SoakResult, chart: string, json: string): string {
  const { windows } = result;
  const sum = (f: (w: Window) => number) => windows.reduce((total, w) => total + f(w), 0);
  const dbStart = windows[0]?.databaseMb ?? 0;
  const dbEnd = windows.at(-1)?.databaseMb ?? 0;
  const targets = result.targets
    .map((t) => `- ${t.met === null ? 'not yet measured' : t.met ? 'met' : 'missed'}: ${t.description} (${t.actual})`)
    .join('\n');
  return [
    process.env.SOAK_HISTORY ? '## Soak from the three-season history (PostgreSQL)' : '## Soak (PostgreSQL)',
    '',
    `Command: \`${result.command}\` — ${result.startedAt}.`,
    '',
    result.machine,
    '',
    `Mix (40% donations, 25% enrolment checks, 15% accounts, 10% ping, 5% mandate reads, 4% remittance batches of 20 entries, 1% report reads). ` +
      `Capacity probed closed-loop, the background work it created counted (its batches reconciled, their receipts issued and mailed): ${Math.round(result.capacity)} requests/s; driven open-loop at ${result.rate} requests/s for ${result.minutes} min. ` +
      `${sum((w) => w.requests).toLocaleString('en-US')} requests, ${sum((w) => w.errors)} errors, ${sum((w) => w.skipped)} not sent (in-flight cap), ${sum((w) => w.unexpected)} unexpected statuses. ` +
      `Database ${dbStart.toFixed(0)} → ${dbEnd.toFixed(0)} MB; the queues drained ${(result.drainMs / 1000).toFixed(1)} s after the last request.`,
    '',
    backgroundMarkdown(result.background),
    '',
    `![soak chart](${chart}) — every 10 s window: [${json}](${json}).`,
    '',
    'Targets:',
    targets,
  ].join('\n');
}

function backgroundMarkdown(b: BackgroundSummary): string {
  const statements = b.statements.map(
    (s) => `${s.matched} of ${s.lines} lines matched in ${(s.ms / 1000).toFixed(1)} s`,
  );
  return (
    `Background work (soak/background.ts): ${b.plans} monthly plans started, the sandbox clock moved a day on ${b.clockAdvances} times ` +
    `(${b.debitsCreated} debits created, ${b.debitsSubmitted} submitted, ${b.paymentsSettled} payments settled; slowest advance ${(b.slowestAdvanceMs / 1000).toFixed(1)} s); ` +
    `${b.mailAccepted} receipts accepted by the local SMTP server; ${b.statements.length} bank statements imported (${statements.join('; ') || 'none'})` +
    `${b.errors.length > 0 ? `; ${b.errors.length} background errors, the first: ${b.errors[0]}` : '; no background errors'}.`
  );
}
