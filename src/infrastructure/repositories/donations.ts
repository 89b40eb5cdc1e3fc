import { CompiledQuery, type Kysely } from 'kysely';
import type { DB, NewDonation } from '../db/schema.js';

/** What a write of one donation found: the stored row's reference id and request hash, and whether it wrote it. */
export interface StoredDonation {
  referenceId: string;
  requestHash: string;
  created: boolean;
}

const NATURAL_KEY = 'on conflict (partner_id, environment, channel, transaction_id) where transaction_id is not null';

/**
 * Inserts a donation unless one with the same natural key (partner, environment, channel, transaction id) exists.
 * The unique index decides, so concurrent retries cannot both insert. Returns the stored row's reference id and
 * request hash, and whether this call created it.
 */
export async function insertDonationOnce(db: Kysely<DB>, donation: NewDonation): Promise<StoredDonation> {
  const [stored] = await insertDonationsOnce(db, [donation]);
  return stored!;
}

/**
 * The same for several donations in one statement (one round trip, one commit: group commit), in their order. A
 * row whose natural key another row of the same call already took behaves as if it came after it: PostgreSQL's
 * `on conflict do nothing` skips it, and it is answered with the row that was stored. Every row must have its own
 * `reference_id` (drawn by the caller): that is how the inserted rows are told apart from the skipped ones.
 */
export async function insertDonationsOnce(db: Kysely<DB>, donations: NewDonation[]): Promise<StoredDonation[]> {
  const columns = columnsOf(donations);
  const parameters: unknown[] = [];
  const rowsSql = donations.map((donation) => {
    const cells = columns.map((column) => {
      const value = donation[column as keyof NewDonation];
      if (value === undefined) return 'default';
      parameters.push(value);
      return `$${parameters.length}`;
    });
    return `(${cells.join(', ')})`;
  });
  const { rows } = await db.executeQuery<{ reference_id: string; request_hash: string }>(
    CompiledQuery.raw(
      `insert into donations (${columns.map((c) => `"${c}"`).join(', ')}) values ${rowsSql.join(', ')} ` +
        `${NATURAL_KEY} do nothing returning reference_id, request_hash`,
      parameters,
    ),
  );
  const inserted = new Map(rows.map((row) => [row.reference_id, row.request_hash]));
  const skipped = donations.filter((d) => !inserted.has(d.reference_id));
  const existing = skipped.length > 0 ? await findByNaturalKeys(db, skipped) : new Map<string, StoredDonation>();
  return donations.map((donation) => {
    const hash = inserted.get(donation.reference_id);
    if (hash !== undefined) return { referenceId: donation.reference_id, requestHash: hash, created: true };
    const found = existing.get(naturalKey(donation));
    if (!found) throw new Error(`donation ${donation.reference_id} was neither inserted nor found by its natural key`);
    return found;
  });
}

/** The stored rows with these donations' natural keys, in one statement. */
async function findByNaturalKeys(db: Kysely<DB>, donations: NewDonation[]): Promise<Map<string, StoredDonation>> {
  const { rows } = await db.executeQuery<{
    partner_id: string;
    environment: string;
    channel: string;
    transaction_id: string;
    reference_id: string;
    request_hash: string;
  }>(
    CompiledQuery.raw(
      'select d.partner_id, d.environment, d.channel, d.transaction_id, d.reference_id, d.request_hash ' +
        'from donations d join unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) as k(p, e, c, t) ' +
        'on d.partner_id = k.p and d.environment = k.e and d.channel = k.c and d.transaction_id = k.t',
      [
        donations.map((d) => d.partner_id),
        donations.map((d) => d.environment),
        donations.map((d) => d.channel),
        donations.map((d) => d.transaction_id),
      ],
    ),
  );
  return new Map(
    rows.map((row) => [
      naturalKey(row),
      { referenceId: row.reference_id, requestHash: row.request_hash, created: false },
    ]),
  );
}

const naturalKey = (d: Pick<NewDonation, 'partner_id' | 'environment' | 'channel' | 'transaction_id'>) =>
  JSON.stringify([d.partner_id, d.environment, d.channel, d.transaction_id]);

/** Every column any of the rows sets; a row without one gets the column's default. Column names are code's. */
function columnsOf(donations: NewDonation[]): string[] {
  const columns = new Set<string>();
  for (const donation of donations)
    for (const [column, value] of Object.entries(donation)) if (value !== undefined) columns.add(column);
  return [...columns];
}
