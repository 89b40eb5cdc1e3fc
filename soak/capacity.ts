import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/infrastructure/db/schema.js';
import { readQueueStats } from '../src/services/queues/queue-stats.js';
import type { SmtpSink } from '../bench/smtp-sink.js';
import type { createClient } from './client.js';
import type { MixSource } from './mix.js';

type Client = ReturnType<typeof createClient>;

export const PROBE_SECONDS = 15;
export const PROBE_CONNECTIONS = 64;

/** What the probe measured: the mix's requests and the background work they created, until it was all done. */
export interface ProbeResult {
  /** Requests per second of sending and draining together: what the service finishes, not what it answers. */
  capacity: number;
  requestsPerSecond: number;
  sendingSeconds: number;
  /** From the last answer until no batch, job or receipt's message of the probe was left. */
  drainMs: number;
  /** From the last answer until its batches were reconciled (their mail may still have been leaving). */
  reconciledMs: number;
  /** The background work the probe's requests created and the drain waited for. */
  batches: number;
  receiptsMailed: number;
}

/**
 * Closed loop: PROBE_CONNECTIONS requests always outstanding for PROBE_SECONDS, then the wait until the work they
 * created is done: the batches reconciled, their receipts issued and mailed (the SMTP sink's count), every queue
 * empty (drainBackground). The mix's capacity is the requests divided by the time of both: a batch answers 202 in
 * milliseconds, and a probe that stopped the clock there would count its settlement, its receipts and their mail as
 * free, so that "half of capacity" would not be sustainable once they pile up.
 */
export async function probe(
  client: Client,
  source: MixSource,
  db: Kysely<DB>,
  smtp: SmtpSink,
  drainTimeoutMs: number,
): Promise<ProbeResult> {
  const loop = async (until: number, counted: { n: number; batches: number }) => {
    while (performance.now() < until) {
      const outcome = await client.send(source.next());
      source.learn(outcome);
      counted.n += 1;
      if (outcome.kind === 'remittance batch' && outcome.status === 202) counted.batches += 1;
    }
  };
  const warm = { n: 0, batches: 0 };
  const warmUntil = performance.now() + 3000;
  await Promise.all(Array.from({ length: PROBE_CONNECTIONS }, () => loop(warmUntil, warm)));
  await drainBackground(db, drainTimeoutMs);
  const mailedBefore = smtp.counts().accepted;
  const counted = { n: 0, batches: 0 };
  const started = performance.now();
  const until = started + PROBE_SECONDS * 1000;
  await Promise.all(Array.from({ length: PROBE_CONNECTIONS }, () => loop(until, counted)));
  const sendingSeconds = (performance.now() - started) / 1000;
  const drained = await drainBackground(db, drainTimeoutMs);
  return {
    capacity: counted.n / (sendingSeconds + drained.ms / 1000),
    requestsPerSecond: counted.n / sendingSeconds,
    sendingSeconds,
    drainMs: drained.ms,
    reconciledMs: drained.reconciledMs,
    batches: counted.batches,
    receiptsMailed: smtp.counts().accepted - mailedBefore,
  };
}

/**
 * Waits until the background work is done: no job of any queue waiting or running, no batch accepted or processing,
 * no message of the mail outbox pending; returns how long it took (at most `timeoutMs`), and how long until the
 * batches alone were done. Each look reads indexes (pg-boss's of jobs not finished, the batches' status index, the
 * outbox's partial index of unsent messages).
 */
export async function drainBackground(
  db: Kysely<DB>,
  timeoutMs: number,
): Promise<{ ms: number; reconciledMs: number }> {
  const started = Date.now();
  let reconciledMs: number | null = null;
  for (;;) {
    const waiting = (await readQueueStats(db)).reduce((sum, q) => sum + q.waiting, 0);
    const { rows } = await sql<{ batches: number; mail: number }>`select
      (select count(*)::int from remittance_batches where status in ('accepted', 'processing')) as batches,
      (select count(*)::int from mail_outbox where status = 'pending') as mail`.execute(db);
    const ms = Date.now() - started;
    if (rows[0]!.batches === 0) reconciledMs ??= ms;
    if ((waiting === 0 && rows[0]!.batches === 0 && rows[0]!.mail === 0) || ms > timeoutMs)
      return { ms, reconciledMs: reconciledMs ?? ms };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Whether autovacuum runs on the soak's database, as it does in production: the server's `autovacuum` and
 * `track_counts` (without which autovacuum has nothing to go on), and no table of ours with it turned off. A soak
 * without it keeps every dead row of the run (each reconciled entry leaves one), and its last third's p99 measures
 * that rather than the service.
 */
export async function autovacuumProblems(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ autovacuum: string; track_counts: string; disabled: string[] }>`select
      current_setting('autovacuum') as autovacuum,
      current_setting('track_counts') as track_counts,
      array(select relname::text from pg_class
            where relnamespace = 'public'::regnamespace and relkind in ('r', 'p')
              and 'autovacuum_enabled=false' = any(coalesce(reloptions, '{}'))) as disabled`.execute(db);
  const row = rows[0]!;
  return [
    ...(row.autovacuum === 'on' ? [] : ['autovacuum is off on the PostgreSQL server']),
    ...(row.track_counts === 'on' ? [] : ['track_counts is off on the PostgreSQL server']),
    ...row.disabled.map((table) => `autovacuum is turned off for table ${table}`),
  ];
}
