import type { Kysely } from 'kysely';
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
  const inserted = await db
    .insertInto('donations')
    .values(donation)
    .onConflict((oc) => oc.columns(['partner_id', 'environment', 'channel', 'transaction_id']).where('transaction_id', 'is not', null).doNothing())
    .returning(['reference_id', 'request_hash'])
    .executeTakeFirst();
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
