import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** What suggestions are made from, and the suggestions themselves (docs/bank-statements.md, "Suggestions"). */

export interface OpenLineRow {
  id: string | number;
  booked_on: string;
  amount_cents: string | number;
  tokens: string[];
}

/**
 * Credit lines that pay nothing at the moment: the work list of open lines (migration 040), not the history; those
 * booked on or after `bookedFrom` (YYYY-MM-DD) when given.
 */
export async function unmatchedCreditLines(db: Kysely<DB>, bookedFrom?: string): Promise<OpenLineRow[]> {
  let query = db.selectFrom('bank_open_lines').select(['line_id as id', 'booked_on', 'amount_cents', 'tokens']);
  if (bookedFrom !== undefined) query = query.where('booked_on', '>=', bookedFrom);
  return query.orderBy('line_id').execute();
}

/** How many credit lines pay nothing, and how many suggestions are open. */
export async function openCounts(db: Kysely<DB>): Promise<{ lines: number; suggestions: number }> {
  const { rows } = await sql<{ lines: string; suggestions: string }>`
    select (select count(*) from bank_open_lines) as lines,
           (select count(*) from bank_suggestions where status = 'open') as suggestions`.execute(db);
  return { lines: Number(rows[0]!.lines), suggestions: Number(rows[0]!.suggestions) };
}

/** The first date booked among a statement's lines (null for a statement of no lines). */
export async function firstBookedOf(db: Kysely<DB>, statementId: string): Promise<string | null> {
  const row = await db
    .selectFrom('bank_lines')
    .select((eb) => eb.fn.min('booked_on').as('first'))
    .where('statement_id', '=', statementId)
    .executeTakeFirst();
  return (row?.first as string | null | undefined) ?? null;
}

/** When the statement imported before `statementId` was imported (null for the first statement). */
export async function previousImportAt(db: Kysely<DB>, statementId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('bank_statements')
    .select('imported_at')
    .where('id', '!=', statementId)
    .orderBy('imported_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.imported_at) : null;
}

/**
 * Open suggestions that name a line or an entry no longer open (matched since, by the automatic rule or an
 * operator): settled, so removed. Reads the open suggestions (a work list), each name by its work list's key.
 */
export async function dropSettledSuggestions(db: Kysely<DB>): Promise<void> {
  await sql`
    delete from bank_suggestions s
    where s.status = 'open'
      and (exists (select from unnest(s.line_ids) l(id)
                   where not exists (select from bank_open_lines o where o.line_id = l.id))
        or exists (select from unnest(s.entry_keys) k(key)
                   where not exists (select from bank_open_entries e
                                     where e.batch_id = split_part(k.key, ':', 1)::uuid
                                       and e.position = split_part(k.key, ':', 2)::integer)))`.execute(db);
}

export interface OpenEntryRow {
  batch_id: string;
  position: number;
  bank_reference_id: string;
  amount_cents: string | number;
  batch_open_cents: string | number;
  created_at: Date;
}

/** Batches whose open totals one statement reads, and entries read a page at a time: never a month's at once. */
const BATCHES_PER_READ = 1000;
const ENTRIES_PER_PAGE = 5000;

/**
 * Money expected and not received: `matched` entries of batches received in [from, to) that no match holds, with
 * their batch's open total, the ones `keep` accepts, by the batch's receipt time, then batch and position. The
 * batches of the range are read first; then, BATCHES_PER_READ batches at a time, their open totals, and their
 * entries by batch id through a cursor, ENTRIES_PER_PAGE at a time, each page filtered before the next is fetched
 * (a 100,000-entry batch is never held whole). Joined in one statement, a planner that had not yet seen a day's
 * batches (it estimated 14 where there were 2,000) looped over them, scanning every matched entry's index once per
 * batch: 4.5 s for 140,000 open entries, beyond the statement timeout at 370,000. Read by pages of their own (after
 * the last position read), every page sorted what was left again: 40 pages of 100–450 ms for 200,000 open entries;
 * the cursor runs the query once. A cursor lives in a transaction: outside one, the read opens its own.
 */
export async function openEntriesReceivedBetween(
  db: Kysely<DB>,
  from: Date,
  to: Date,
  keep: (entry: OpenEntryRow) => boolean,
  pages: { batchesPerRead?: number; entriesPerPage?: number } = {},
): Promise<OpenEntryRow[]> {
  if (!db.isTransaction)
    return db.transaction().execute((trx) => openEntriesReceivedBetween(trx, from, to, keep, pages));
  const { batchesPerRead = BATCHES_PER_READ, entriesPerPage = ENTRIES_PER_PAGE } = pages;
  // FETCH takes its count as a literal, not a parameter; 0 would fetch the current row again and again.
  const fetchCount = sql.lit(Math.max(1, Math.trunc(entriesPerPage)));
  const batches = await db
    .selectFrom('remittance_batches')
    .select(['id', 'created_at'])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .execute();
  const receivedAt = new Map(batches.map((b) => [b.id, new Date(b.created_at)]));
  const kept: OpenEntryRow[] = [];
  for (let start = 0; start < batches.length; start += batchesPerRead) {
    const ids = batches.slice(start, start + batchesPerRead).map((b) => b.id);
    // The batches' open entries from the work list of open entries (migration 045), by its primary key: never the
    // links ever made.
    const open = sql`e.batch_id = any(${ids}::uuid[])`;
    const totals = await sql<{ batch_id: string; cents: string }>`
      select e.batch_id, sum(e.amount_cents) as cents from bank_open_entries e where ${open} group by e.batch_id`.execute(
      db,
    );
    const openCents = new Map(totals.rows.map((t) => [t.batch_id, t.cents]));
    await sql`declare open_entries no scroll cursor for
      select e.batch_id, e.position, e.bank_reference_id, e.amount_cents from bank_open_entries e where ${open}`.execute(
      db,
    );
    for (;;) {
      const { rows } = await sql<OpenEntryRow>`fetch ${fetchCount} from open_entries`.execute(db);
      for (const row of rows) {
        row.batch_open_cents = openCents.get(row.batch_id)!;
        row.created_at = receivedAt.get(row.batch_id)!;
        if (keep(row)) kept.push(row);
      }
      if (rows.length < entriesPerPage) break;
    }
    await sql`close open_entries`.execute(db);
  }
  return kept.sort(
    (a, b) =>
      a.created_at.getTime() - b.created_at.getTime() ||
      (a.batch_id < b.batch_id ? -1 : a.batch_id > b.batch_id ? 1 : 0) ||
      a.position - b.position,
  );
}

export async function rejectedSignatures(db: Kysely<DB>): Promise<Set<string>> {
  const rows = await db.selectFrom('bank_suggestions').select('signature').where('status', '=', 'rejected').execute();
  return new Set(rows.map((r) => r.signature));
}

export interface SuggestionToStore {
  rule: string;
  lineIds: number[];
  entryKeys: string[];
  signature: string;
  score: number;
  reasons: string;
  lineCents: number;
  entryCents: number;
}

/**
 * Open suggestions are a result of the last run: replaced whole, or, when `ofLines` names the lines a run looked
 * at, those naming any of them replaced; in two statements per chunk.
 */
export async function replaceOpenSuggestions(
  db: Kysely<DB>,
  suggestions: readonly SuggestionToStore[],
  at: Date,
  ofLines?: readonly number[],
) {
  if (ofLines === undefined) await db.deleteFrom('bank_suggestions').where('status', '=', 'open').execute();
  else if (ofLines.length > 0)
    await sql`delete from bank_suggestions
      where status = 'open' and line_ids && ${[...ofLines]}::bigint[]`.execute(db);
  for (let from = 0; from < suggestions.length; from += 5000) {
    const rows = suggestions.slice(from, from + 5000).map((s) => ({ ...s, at }));
    await sql`
      insert into bank_suggestions (rule, line_ids, entry_keys, signature, score, reasons, line_cents, entry_cents, created_at)
      select r."rule", array(select jsonb_array_elements_text(r."lineIds"))::bigint[],
             array(select jsonb_array_elements_text(r."entryKeys")), r.signature, r.score, r.reasons,
             r."lineCents", r."entryCents", r."at"
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r("rule" text, "lineIds" jsonb, "entryKeys" jsonb,
        signature text, score integer, reasons text, "lineCents" bigint, "entryCents" bigint, "at" timestamptz)`.execute(
      db,
    );
  }
}

/** A suggestion, row-locked until the decision on it commits. */
export async function lockSuggestion(trx: Kysely<DB>, id: number) {
  return trx.selectFrom('bank_suggestions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function decideSuggestion(
  trx: Kysely<DB>,
  id: number,
  decision: { status: 'confirmed' | 'rejected'; by: string; at: Date; reason: string | null },
) {
  await trx
    .updateTable('bank_suggestions')
    .set({ status: decision.status, decided_by: decision.by, decided_at: decision.at, reason: decision.reason })
    .where('id', '=', id)
    .execute();
}

/** Open suggestions that name any of these lines or entries: a match made of them settles them all. */
export async function dropOpenSuggestionsTouching(trx: Kysely<DB>, lineIds: number[], entryKeys: string[]) {
  await sql`delete from bank_suggestions
    where status = 'open' and (line_ids && ${lineIds}::bigint[] or entry_keys && ${entryKeys}::text[])`.execute(trx);
}

/** Remembers lines and entries an operator said do not belong together (a match undone). */
export async function insertRejection(
  trx: Kysely<DB>,
  row: SuggestionToStore & { by: string; at: Date; reason: string },
) {
  await trx
    .insertInto('bank_suggestions')
    .values({
      rule: row.rule,
      line_ids: row.lineIds,
      entry_keys: row.entryKeys,
      signature: row.signature,
      score: row.score,
      reasons: row.reasons,
      line_cents: row.lineCents,
      entry_cents: row.entryCents,
      status: 'rejected',
      decided_by: row.by,
      decided_at: row.at,
      reason: row.reason,
    })
    .execute();
}
