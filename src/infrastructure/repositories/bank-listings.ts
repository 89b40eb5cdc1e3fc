import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';

/** What operators list: lines, money expected and not received, suggestions and matches (docs/bank-statements.md). */

export interface LineRow {
  id: string;
  file_name: string;
  line_no: number;
  account: string;
  booked_on: string;
  credit: boolean;
  amount_cents: string;
  description: string;
  reference: string | null;
  match_id: string | null;
}

/**
 * Newest first; `unmatched`: credit lines that pay nothing (the work list of open lines, migration 040), oldest
 * first (the longest waiting).
 */
export async function listLines(
  db: Kysely<DB>,
  options: { unmatched: boolean; limit: number; after?: number },
): Promise<LineRow[]> {
  // After a line: the rows past its (booked_on, id) in the list's order, through the list's index.
  const past = (key: RawBuilder<unknown>, op: RawBuilder<unknown>) =>
    options.after === undefined
      ? sql``
      : sql`where ${key} ${op} (select a.booked_on, a.id from bank_lines a where a.id = ${options.after})`;
  const { rows } = await sql<LineRow>`
    select l.id, s.file_name, l.line_no, l.account, l.booked_on, l.credit, l.amount_cents, l.description, l.reference,
           (select ml.match_id from bank_match_lines ml where ml.line_id = l.id and ml.active) as match_id
    from ${options.unmatched ? sql`bank_open_lines o join bank_lines l on l.id = o.line_id` : sql`bank_lines l`}
    join bank_statements s on s.id = l.statement_id
    ${options.unmatched ? past(sql`(o.booked_on, o.line_id)`, sql`>`) : past(sql`(l.booked_on, l.id)`, sql`<`)}
    order by ${options.unmatched ? sql`o.booked_on, o.line_id` : sql`l.booked_on desc, l.id desc`}
    limit ${options.limit}`.execute(db);
  return rows;
}

export interface UnpaidEntryRow {
  batch_id: string;
  position: number;
  bank_reference_id: string;
  amount_cents: string;
  partner_name: string;
  created_at: Date;
  /** created_at as PostgreSQL writes it, to the microsecond: the page's key (a Date keeps milliseconds only). */
  received_key: string;
}

/**
 * `matched` entries whose money no match received, the oldest batch first, from the work list of open entries
 * (migration 045), after `after` (received_at, batch_id, position) when given.
 */
export async function listUnpaidEntries(
  db: Kysely<DB>,
  page: { limit: number; after?: readonly [string, string, number] },
): Promise<UnpaidEntryRow[]> {
  const after = page.after;
  const { rows } = await sql<UnpaidEntryRow>`
    select o.batch_id, o.position, o.bank_reference_id, o.amount_cents, p.name as partner_name,
           o.received_at as created_at, o.received_at::text as received_key
    from bank_open_entries o
    join partners p on p.id = o.partner_id
    ${after ? sql`where (o.received_at, o.batch_id, o.position) > (${after[0]}::timestamptz, ${after[1]}::uuid, ${after[2]})` : sql``}
    order by o.received_at, o.batch_id, o.position
    limit ${page.limit}`.execute(db);
  return rows;
}

export interface SuggestionRow {
  id: string;
  rule: string;
  score: number;
  reasons: string;
  line_cents: string;
  entry_cents: string;
  lines: { id: number; booked_on: string; amount_cents: number; description: string; reference: string | null }[];
  entries: {
    batch_id: string;
    position: number;
    bank_reference_id: string;
    amount_cents: number;
    partner_name: string;
    created_at: string;
  }[];
}

/** Open suggestions, best first, each with its lines and entries. */
export async function listOpenSuggestions(db: Kysely<DB>, limit: number): Promise<SuggestionRow[]> {
  const { rows } = await sql<SuggestionRow>`
    select s.id, s.rule, s.score, s.reasons, s.line_cents, s.entry_cents,
      (select coalesce(jsonb_agg(jsonb_build_object('id', l.id, 'booked_on', l.booked_on, 'amount_cents', l.amount_cents,
                'description', l.description, 'reference', l.reference) order by l.id), '[]')
       from bank_lines l where l.id = any(s.line_ids)) as lines,
      (select coalesce(jsonb_agg(jsonb_build_object('batch_id', e.batch_id, 'position', e.position,
                'bank_reference_id', e.bank_reference_id, 'amount_cents', e.amount_cents, 'partner_name', p.name,
                'created_at', b.created_at) order by e.batch_id, e.position), '[]')
       from unnest(s.entry_keys) as k(key)
       join remittance_entries e on e.batch_id = split_part(k.key, ':', 1)::uuid
                                and e.position = split_part(k.key, ':', 2)::integer
       join remittance_batches b on b.id = e.batch_id
       join partners p on p.id = b.partner_id) as entries
    from bank_suggestions s
    where s.status = 'open'
    order by s.score desc, s.id
    limit ${limit}`.execute(db);
  return rows;
}

export interface MatchRow {
  id: string;
  method: string;
  rule: string;
  line_cents: string;
  entry_cents: string;
  decided_by: string;
  decided_at: Date;
  unmatched_by: string | null;
  unmatched_at: Date | null;
  unmatch_reason: string | null;
  line_ids: string[];
  entry_keys: string[];
}

/** Matches newest first, undone ones included; after a match: the older ones. */
export async function listMatches(db: Kysely<DB>, limit: number, after?: number): Promise<MatchRow[]> {
  const { rows } = await sql<MatchRow>`
    select m.id, m.method, m.rule, m.line_cents, m.entry_cents, m.decided_by, m.decided_at, m.unmatched_by,
           m.unmatched_at, m.unmatch_reason,
           array(select ml.line_id::text from bank_match_lines ml where ml.match_id = m.id order by ml.line_id) as line_ids,
           array(select me.batch_id || ':' || me.position from bank_match_entries me where me.match_id = m.id
                 order by me.batch_id, me.position) as entry_keys
    from bank_matches m
    ${after === undefined ? sql`` : sql`where m.id < ${after}`}
    order by m.id desc
    limit ${limit}`.execute(db);
  return rows;
}

export interface StatementRow {
  id: string;
  file_name: string;
  format: string;
  layout: string;
  statement_ref: string | null;
  lines_read: number;
  lines_added: number;
  imported_by: string;
  imported_at: Date;
  first_booked: string | null;
  last_booked: string | null;
}

/**
 * Imported statements newest first, with the dates their added lines span: the page's statements chosen first, then
 * each one's first and last date read from its own lines (bank_lines_statement_booked_idx, migration 056).
 */
export async function listStatements(db: Kysely<DB>, limit: number): Promise<StatementRow[]> {
  const { rows } = await sql<StatementRow>`
    select s.id, s.file_name, s.format, s.layout, s.statement_ref, s.lines_read, s.lines_added, s.imported_by,
           s.imported_at, d.first_booked, d.last_booked
    from (select * from bank_statements order by imported_at desc, id limit ${limit}) s
    left join lateral (select min(l.booked_on) as first_booked, max(l.booked_on) as last_booked
                       from bank_lines l where l.statement_id = s.id) d on true
    order by s.imported_at desc, s.id`.execute(db);
  return rows;
}

export async function lineExists(db: Kysely<DB>, id: number): Promise<boolean> {
  return (await db.selectFrom('bank_lines').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
