import { sql, type Kysely } from 'kysely';
import { MATCHING_WORK_MEM } from '../db/embedded.js';
import type { DB } from '../db/schema.js';

/**
 * Writes of a bank statement import and the automatic matching (docs/bank-statements.md): a fixed number of
 * statements per chunk of lines, never one per line.
 */

export interface LineToStore {
  lineNo: number;
  account: string;
  bookedOn: string;
  valueOn: string | null;
  credit: boolean;
  amountCents: number;
  description: string;
  reference: string | null;
  bankRef: string | null;
  tokens: string[];
  dedupeKey: string;
}

/** Rows per insert: a few megabytes of JSON at most, well inside what one statement should carry. */
export const LINES_PER_INSERT = 5000;
/** Entries received read at a time, in order, after the automatic rule. */
const RECEIVED_PAGE = 5000;
/** Lines added by one import from which the table's statistics are refreshed before matching. */
const ANALYZE_AFTER = 10_000;

/** Serialises imports, matching runs and operators' decisions: each reads what is open and then claims it. */
export async function lockBankMatching(trx: Kysely<DB>): Promise<void> {
  // Matching sorts a statement's candidate pairs twice: as much memory as the database's MATCHING_WORK_MEM allows.
  // Without JIT: the pairs' estimated cost crosses PostgreSQL's thresholds for a large statement, and compiling the
  // plan took ~0.6 s of a 3.4 s statement (auto_explain), more than the compiled plan saved.
  const { setting, server } = MATCHING_WORK_MEM;
  await sql`
    select pg_advisory_xact_lock(hashtextextended('bank-matching', 0)),
           set_config('work_mem', coalesce(nullif(current_setting(${setting}, true), ''), ${server}), true),
           set_config('jit', 'off', true)`.execute(trx);
}

export async function findStatementByHash(db: Kysely<DB>, sha256: string) {
  return db
    .selectFrom('bank_statements')
    .select(['id', 'file_name', 'imported_at', 'imported_by'])
    .where('file_sha256', '=', sha256)
    .executeTakeFirst();
}

export async function insertStatement(
  db: Kysely<DB>,
  row: { fileName: string; sha256: string; format: 'camt053' | 'csv'; layout: string; statementRef: string | null },
  counts: { read: number; importedBy: string; at: Date },
): Promise<string> {
  const { id } = await db
    .insertInto('bank_statements')
    .values({
      file_name: row.fileName,
      file_sha256: row.sha256,
      format: row.format,
      layout: row.layout,
      statement_ref: row.statementRef,
      lines_read: counts.read,
      lines_added: 0,
      imported_by: counts.importedBy,
      imported_at: counts.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Adds the lines no earlier statement holds (dedupe_key), one statement per chunk of at most LINES_PER_INSERT lines,
 * and records how many were added. Returns that number. The next chunk is asked for while the one before is being
 * stored, so that a caller making them as they go (rather than holding a large statement's lines ready to store all
 * at once) makes each while the database works, not between its statements; at most two chunks are held.
 */
export async function insertNewLines(db: Kysely<DB>, statementId: string, chunks: Iterable<readonly LineToStore[]>) {
  let added = 0;
  let storing: Promise<number> | undefined;
  try {
    for (const chunk of chunks) {
      const rows = JSON.stringify(chunk.map(toRow));
      if (storing) added += await storing;
      storing = insertChunk(db, statementId, rows);
      // Marked handled now: it is awaited after the next chunk is made, and that making may throw first.
      storing.catch(() => undefined);
      // Lets the driver write the statement before this loop turns to making the next chunk.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (err) {
    // The caller gets the connection back with no statement of ours still running on it.
    await storing?.catch(() => undefined);
    throw err;
  }
  if (storing) added += await storing;
  await db.updateTable('bank_statements').set({ lines_added: added }).where('id', '=', statementId).execute();
  // Matching plans its joins from the table's statistics, which a large import in this very transaction makes stale
  // (autovacuum cannot see uncommitted rows; ANALYZE in the transaction does).
  if (added >= ANALYZE_AFTER) await sql`analyze bank_lines, bank_open_lines`.execute(db);
  return added;
}

const toRow = (l: LineToStore) => ({
  n: l.lineNo,
  a: l.account,
  b: l.bookedOn,
  v: l.valueOn,
  c: l.credit,
  m: l.amountCents,
  d: l.description,
  r: l.reference,
  x: l.bankRef,
  t: l.tokens,
  k: l.dedupeKey,
});

async function insertChunk(db: Kysely<DB>, statementId: string, rows: string): Promise<number> {
  const result = await sql`
    insert into bank_lines (statement_id, line_no, account, booked_on, value_on, credit, amount_cents, description,
                            reference, bank_ref, tokens, dedupe_key)
    select ${statementId}::uuid, r.n, r.a, r.b, r.v, r.c, r.m, r.d, r.r, r.x,
           array(select jsonb_array_elements_text(r.t)), r.k
    from jsonb_to_recordset(${rows}::jsonb)
      as r(n integer, a text, b text, v text, c boolean, m bigint, d text, r text, x text, t jsonb, k text)
    on conflict (dedupe_key) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** An entry whose money a bank line was found to pay, with what its partner is told. */
export interface ReceivedEntry {
  batch_id: string;
  position: number;
  bank_reference_id: string;
  amount_cents: string | number;
  partner_id: string;
  environment: string;
}

/**
 * The automatic rule, set-based, over the work lists of open lines and open entries (migrations 040, 045): a credit
 * line never matched before whose words hold exactly one open entry's bank reference with the same amount, that entry being held so by no other such line, pays it. Each pair
 * becomes a match with its two links. Returns how many; receivedEntries reads their entries afterwards.
 */
export async function matchByReference(trx: Kysely<DB>, at: Date): Promise<number> {
  // The pairs are kept in a temporary table and written by the statements after it: each of them stays well inside
  // the statement timeout for a 100,000-line statement, where one statement doing it all would not on a busy server.
  await sql`drop table if exists pg_temp.bank_pairs`.execute(trx);
  await sql`
    create temporary table bank_pairs on commit drop as
    with words as materialized (
      select o.line_id, o.amount_cents, t.token
      from bank_open_lines o
      cross join lateral unnest(o.tokens) as t(token)
      where o.never_matched
    ),
    -- Joined on the word and the amount together: on the amount alone (many lines and entries share one), the
    -- pairs would be the product of both.
    candidates as (
      select w.line_id, e.batch_id, e.position, e.amount_cents, e.bank_reference_id
      from words w
      join bank_open_entries e on (upper(e.bank_reference_id), e.amount_cents) = (w.token, w.amount_cents)
    ),
    counted as (
      select c.*, count(*) over (partition by c.line_id) as per_line,
             count(*) over (partition by c.batch_id, c.position) as per_entry
      from candidates c
    )
    -- The sequence looked up once (an init plan), not for each pair: the lookup cost ~4 µs a row.
    select nextval((select pg_get_serial_sequence('bank_matches', 'id')::regclass)) as match_id, line_id, batch_id,
           position, amount_cents, bank_reference_id
    from counted where per_line = 1 and per_entry = 1`.execute(trx);
  // receivedEntries reads the pairs back in pages, each from where the one before ended.
  await sql`create index on pg_temp.bank_pairs (batch_id, position)`.execute(trx);
  const matches = await sql`
    insert into bank_matches (id, method, rule, line_cents, entry_cents, decided_by, decided_at)
    select match_id, 'automatic', 'reference', amount_cents, amount_cents, 'system', ${at} from bank_pairs`.execute(
    trx,
  );
  await sql`
    insert into bank_match_lines (match_id, line_id, amount_cents)
    select match_id, line_id, amount_cents from bank_pairs`.execute(trx);
  await sql`
    insert into bank_match_entries (match_id, batch_id, position, amount_cents, received_at)
    select match_id, batch_id, position, amount_cents, ${at} from bank_pairs`.execute(trx);
  const matched = Number(matches.numAffectedRows ?? 0);
  // The suggestions that follow anti-join open lines and entries against these links: planned from statistics
  // taken before this transaction added them (none, on a first import), they became nested loops over every link
  // for each open entry, and outlived the statement timeout with 200,000 entries open.
  if (matched >= ANALYZE_AFTER) await sql`analyze bank_match_lines, bank_match_entries`.execute(trx);
  return matched;
}

/**
 * The entries the last matchByReference of this transaction found received, by batch and position, a page at a
 * time: the entries of a large statement (one per line) are not all held at once.
 */
export async function* receivedEntries(trx: Kysely<DB>): AsyncGenerator<ReceivedEntry[]> {
  let after: ReceivedEntry | undefined;
  for (;;) {
    const next = after
      ? sql`(p.batch_id, p.position) > (${after.batch_id}::uuid, ${after.position}::integer)`
      : sql`true`;
    const { rows } = await sql<ReceivedEntry>`
      select p.batch_id, p.position, p.bank_reference_id, p.amount_cents, b.partner_id, b.environment
      from bank_pairs p join remittance_batches b on b.id = p.batch_id
      where ${next}
      order by p.batch_id, p.position
      limit ${RECEIVED_PAGE}`.execute(trx);
    if (rows.length > 0) yield rows;
    if (rows.length < RECEIVED_PAGE) return;
    after = rows.at(-1);
  }
}
