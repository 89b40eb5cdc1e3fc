import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A partner's own donation, the whole row, with how it was settled; another partner's is not found. */
export async function findOwnDonation(
  db: Kysely<DB>,
  owner: { partnerId: string; environment: string },
  referenceId: string,
) {
  return db
    .selectFrom('donations as d')
    .leftJoin('donation_settlements as s', 's.donation_id', 'd.id')
    .selectAll('d')
    .select([
      's.batch_id as settled_batch_id',
      's.bank_reference_id as settled_bank_reference_id',
      's.position as settled_position',
      's.debit_id as settled_debit_id',
      's.settled_at',
    ])
    .where('d.reference_id', '=', referenceId)
    .where('d.partner_id', '=', owner.partnerId)
    .where('d.environment', '=', owner.environment)
    .executeTakeFirst();
}
