import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { ReceivedEntry } from './bank-statements.js';

/** Matches made and undone by operators, and which entries' money was received (docs/bank-statements.md). */

export interface EntryKey {
  batchId: string;
  position: number;
}

export function parseEntryKey(text: string): EntryKey {
  const at = text.lastIndexOf(':');
  return { batchId: text.slice(0, at), position: Number(text.slice(at + 1)) };
}

const keysJson = (keys: readonly EntryKey[]) => JSON.stringify(keys.map((k) => ({ b: k.batchId, p: k.position })));

/** Lines of these ids that already pay through a match, with that match. */
export async function linesInMatches(trx: Kysely<DB>, lineIds: number[]) {
  return trx
    .selectFrom('bank_match_lines')
    .select(['line_id', 'match_id'])
    .where('line_id', 'in', lineIds)
    .where('active', '=', true)
    .execute();
}

/** The lines themselves (credit or not, their amounts), for a decision's checks. */
export async function linesByIds(trx: Kysely<DB>, lineIds: number[]) {
  return trx
    .selectFrom('bank_lines')
    .select(['id', 'credit', 'amount_cents'])
    .where('id', 'in', lineIds)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** The entries of these keys, with what a decision needs: their outcome, amount, partner, and any active match. */
export async function entriesByKeys(trx: Kysely<DB>, keys: readonly EntryKey[]) {
  const { rows } = await sql<ReceivedEntry & { outcome: string | null; match_id: string | null }>`
    select e.batch_id, e.position, e.bank_reference_id, e.amount_cents, e.outcome, b.partner_id, b.environment,
           (select me.match_id from bank_match_entries me
            where me.batch_id = e.batch_id and me.position = e.position and me.active) as match_id
    from jsonb_to_recordset(${keysJson(keys)}::jsonb) as k(b uuid, p integer)
    join remittance_entries e on e.batch_id = k.b and e.position = k.p
    join remittance_batches b on b.id = e.batch_id
    order by e.batch_id, e.position`.execute(trx);
  return rows;
}

export interface NewMatch {
  method: 'automatic' | 'confirmed';
  rule: string;
  suggestionId: number | null;
  by: string;
  at: Date;
  lines: { id: number; cents: number }[];
  entries: (EntryKey & { cents: number })[];
}

/** A match and its links, in three statements; the partial unique indexes refuse a line or entry already held. */
export async function insertMatch(trx: Kysely<DB>, match: NewMatch): Promise<number> {
  const sum = (items: { cents: number }[]) => items.reduce((total, i) => total + i.cents, 0);
  const { id } = await trx
    .insertInto('bank_matches')
    .values({
      method: match.method,
      rule: match.rule,
      line_cents: sum(match.lines),
      entry_cents: sum(match.entries),
      suggestion_id: match.suggestionId,
      decided_by: match.by,
      decided_at: match.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const matchId = Number(id);
  await trx
    .insertInto('bank_match_lines')
    .values(match.lines.map((l) => ({ match_id: matchId, line_id: l.id, amount_cents: l.cents })))
    .execute();
  await trx
    .insertInto('bank_match_entries')
    .values(
      match.entries.map((e) => ({
        match_id: matchId,
        batch_id: e.batchId,
        position: e.position,
        amount_cents: e.cents,
        received_at: match.at,
      })),
    )
    .execute();
  return matchId;
}

/** A match with its links, row-locked until the decision on it commits. */
export async function lockMatch(trx: Kysely<DB>, matchId: number) {
  const match = await trx
    .selectFrom('bank_matches')
    .selectAll()
    .where('id', '=', matchId)
    .forUpdate()
    .executeTakeFirst();
  if (!match) return undefined;
  const lines = await trx.selectFrom('bank_match_lines').selectAll().where('match_id', '=', matchId).execute();
  const entries = await trx.selectFrom('bank_match_entries').selectAll().where('match_id', '=', matchId).execute();
  return { match, lines, entries };
}

/** Undoes a match: its links stop being active, and it records who undid it, when and why. */
export async function markUnmatched(trx: Kysely<DB>, matchId: number, undo: { by: string; at: Date; reason: string }) {
  await trx
    .updateTable('bank_matches')
    .set({ unmatched_by: undo.by, unmatched_at: undo.at, unmatch_reason: undo.reason })
    .where('id', '=', matchId)
    .execute();
  await trx.updateTable('bank_match_lines').set({ active: false }).where('match_id', '=', matchId).execute();
  await trx.updateTable('bank_match_entries').set({ active: false }).where('match_id', '=', matchId).execute();
}

/** The donations these entries settled (by id): what is receipted when their money is received. */
export async function donationsSettledBy(trx: Kysely<DB>, keys: readonly EntryKey[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<{ donation_id: string }>`
    select s.donation_id
    from jsonb_to_recordset(${keysJson(keys)}::jsonb) as k(b uuid, p integer)
    join donation_settlements s on s.batch_id = k.b and s.position = k.p
    order by s.batch_id, s.position, s.donation_id`.execute(trx);
  return rows.map((r) => r.donation_id);
}
