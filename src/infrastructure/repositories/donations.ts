import { CompiledQuery, type Kysely } from 'kysely';
import type { DB, NewDonation } from '../db/schema.js';

/**
 * Inserts a donation unless one with the same natural key (partner, environment, channel, transaction id) exists.
 * The unique index decides, so concurrent retries cannot both insert. Returns the stored row's reference id and
 * request hash, and whether this call created it.
 */
export async function insertDonationOnce(
  db: Kysely<DB>,
  donation: NewDonation,
): Promise<{ referenceId: string; requestHash: string; created: boolean }> {
  // Columns with an undefined value are left to their defaults, as the query builder's values() does.
  const columns = Object.keys(donation).filter((column) => donation[column as keyof NewDonation] !== undefined);
  const parameters = columns.map((column) => donation[column as keyof NewDonation]);
  const { rows } = await db.executeQuery<{ reference_id: string; request_hash: string }>(CompiledQuery.raw(insertOnceSql(columns), parameters));
  const inserted = rows[0];
  if (inserted) return { referenceId: inserted.reference_id, requestHash: inserted.request_hash, created: true };
  const existing = await db
    .selectFrom('donations')
    .select(['reference_id', 'request_hash'])
    .where('partner_id', '=', donation.partner_id)
    .where('environment', '=', donation.environment)
    .where('channel', '=', donation.channel)
    .where('transaction_id', '=', donation.transaction_id!)
    .executeTakeFirstOrThrow();
  return { referenceId: existing.reference_id, requestHash: existing.request_hash, created: false };
}

// The statement text per set of columns, written once: this insert runs for every donation, and building and
// compiling it with the query builder cost ~25 µs of CPU each time. Column names come from NewDonation (code,
// never request input), so there are as many entries as call sites.
const insertOnceStatements = new Map<string, string>();

function insertOnceSql(columns: string[]): string {
  const key = columns.join(',');
  let text = insertOnceStatements.get(key);
  if (!text) {
    text =
      `insert into donations (${columns.map((column) => `"${column}"`).join(', ')}) ` +
      `values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) ` +
      'on conflict (partner_id, environment, channel, transaction_id) where transaction_id is not null do nothing ' +
      'returning reference_id, request_hash';
    insertOnceStatements.set(key, text);
  }
  return text;
}
