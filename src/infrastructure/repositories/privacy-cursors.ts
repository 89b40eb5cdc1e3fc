import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { WalkCursor } from './privacy-deidentify.js';

export type WalkKind = 'donations' | 'mandates';

/** Where the walk of `kind` stands, locked until the caller's transaction ends (one batch at a time per kind). */
export async function lockCursor(trx: Kysely<DB>, kind: WalkKind): Promise<WalkCursor> {
  await sql`insert into privacy_cursors (kind) values (${kind}) on conflict (kind) do nothing`.execute(trx);
  const { rows } = await sql<{ after_at: string | null; after_id: string | null }>`
    select after_at::text as after_at, after_id from privacy_cursors where kind = ${kind} for update`.execute(trx);
  const row = rows[0]!;
  return { afterAt: row.after_at, afterId: row.after_id };
}

/** Moves the walk past `last`, or back to the start (`null`) when it reached the end. */
export async function saveCursor(trx: Kysely<DB>, kind: WalkKind, last: WalkCursor | null): Promise<void> {
  await sql`update privacy_cursors set after_at = ${last?.afterAt ?? null}::timestamptz, after_id = ${last?.afterId ?? null},
              pass_started_at = case when ${last === null} then now() else pass_started_at end, updated_at = now()
            where kind = ${kind}`.execute(trx);
}

/** Adds to the counts of what was de-identified, per kind (metrics and console). */
export async function addTotals(trx: Kysely<DB>, counts: Record<string, number>, at: Date): Promise<void> {
  for (const [kind, rows] of Object.entries(counts)) {
    await sql`insert into privacy_totals (kind, rows, last_run_at) values (${kind}, ${rows}, ${at})
              on conflict (kind) do update set rows = privacy_totals.rows + excluded.rows,
                last_run_at = excluded.last_run_at`.execute(trx);
  }
}

export interface PrivacyProgress {
  totals: { kind: string; rows: number; lastRunAt: Date | null }[];
  /** Donations past `cutoff` still identified (held by a receipt, or not reached yet). */
  donationsLeft: number;
  cursors: { kind: string; afterAt: Date | null; passStartedAt: Date }[];
}

export async function readProgress(db: Kysely<DB>, donorCutoff: Date): Promise<PrivacyProgress> {
  const totals = await sql<{ kind: string; rows: string; last_run_at: Date | null }>`
    select kind, rows::text as rows, last_run_at from privacy_totals order by kind`.execute(db);
  const left = await sql<{ n: number }>`select count(*)::int as n from donations
    where deidentified_at is null and created_at < ${donorCutoff}`.execute(db);
  const cursors = await sql<{ kind: string; after_at: Date | null; pass_started_at: Date }>`
    select kind, after_at, pass_started_at from privacy_cursors order by kind`.execute(db);
  return {
    totals: totals.rows.map((r) => ({ kind: r.kind, rows: Number(r.rows), lastRunAt: r.last_run_at })),
    donationsLeft: left.rows[0]!.n,
    cursors: cursors.rows.map((r) => ({ kind: r.kind, afterAt: r.after_at, passStartedAt: r.pass_started_at })),
  };
}
