import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { ErasedRefs } from './privacy-erasure.js';

export interface KeptItem {
  kind: 'donation' | 'receipt' | 'statement';
  ref: string;
  why: string;
  /** The last day it is kept (YYYY-MM-DD, the foundation's date). */
  until: string;
}

export interface ErasureRequestRow {
  id: string;
  seq: string;
  email: string | null;
  reason: string;
  requested_by: string;
  requested_at: Date;
  status: 'pending' | 'done' | 'cancelled';
  decided_by: string | null;
  decided_at: Date | null;
  erased: ErasedRefs | null;
  kept: KeptItem[] | null;
}

export async function insertErasureRequest(
  db: Kysely<DB>,
  row: { email: string; reason: string; requestedBy: string; at: Date },
): Promise<ErasureRequestRow> {
  const { rows } = await sql<ErasureRequestRow>`
    insert into erasure_requests (email, reason, requested_by, requested_at)
    values (${row.email}, ${row.reason}, ${row.requestedBy}, ${row.at}) returning *`.execute(db);
  return rows[0]!;
}

/** The request, locked until the caller's transaction ends (two approvals at once: the second sees it done). */
export async function lockErasureRequest(db: Kysely<DB>, id: string): Promise<ErasureRequestRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const { rows } =
    await sql<ErasureRequestRow>`select * from erasure_requests where id = ${id}::uuid for update`.execute(db);
  return rows[0];
}

/** Done (or cancelled): the e-mail is cleared, the references kept. */
export async function closeErasureRequest(
  db: Kysely<DB>,
  id: string,
  outcome: { status: 'done' | 'cancelled'; by: string; at: Date; erased?: ErasedRefs; kept?: KeptItem[] },
): Promise<void> {
  await sql`update erasure_requests set status = ${outcome.status}, email = null, decided_by = ${outcome.by},
              decided_at = ${outcome.at}, erased = ${outcome.erased ? JSON.stringify(outcome.erased) : null}::jsonb,
              kept = ${outcome.kept ? JSON.stringify(outcome.kept) : null}::jsonb
            where id = ${id}::uuid`.execute(db);
}

export async function listErasureRequests(
  db: Kysely<DB>,
  filter: { status?: 'pending' | 'done' | 'cancelled'; limit: number },
): Promise<ErasureRequestRow[]> {
  const { rows } = await sql<ErasureRequestRow>`
    select * from erasure_requests where ${filter.status === undefined ? sql`true` : sql`status = ${filter.status}`}
    order by seq desc limit ${filter.limit}`.execute(db);
  return rows;
}

/** Every performed erasure's references, oldest first (a replay after a restore). */
export async function performedErasures(db: Kysely<DB>): Promise<{ id: string; erased: ErasedRefs }[]> {
  const { rows } = await sql<{ id: string; erased: ErasedRefs }>`
    select id, erased from erasure_requests where status = 'done' and erased is not null order by seq`.execute(db);
  return rows;
}
