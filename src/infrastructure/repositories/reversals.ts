import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { DonationReversal, DonationReversalsTable } from '../db/schema-reversals.js';

/** A donation as a reversal needs it, row-locked until the transaction ends: reversals of it are made one by one. */
export interface DonationToReverse {
  id: string;
  reference_id: string;
  partner_id: string;
  environment: string;
  amount_cents: number | null;
  reversed_cents: number;
  settled: boolean;
}

export async function lockDonationToReverse(
  trx: Kysely<DB>,
  referenceId: string,
  owner?: { partnerId: string; environment: string },
): Promise<DonationToReverse | undefined> {
  const { rows } = await sql<{
    id: string;
    reference_id: string;
    partner_id: string;
    environment: string;
    amount_cents: string | number | null;
    reversed_cents: string | number;
    settled: boolean;
  }>`
    select d.id, d.reference_id, d.partner_id, d.environment, d.amount_cents, d.reversed_cents,
      exists (select 1 from donation_settlements s where s.donation_id = d.id) as settled
    from donations d
    where d.reference_id = ${referenceId}
      ${owner ? sql`and d.partner_id = ${owner.partnerId} and d.environment = ${owner.environment}` : sql``}
    for update of d`.execute(trx);
  const row = rows[0];
  if (!row) return undefined;
  return {
    ...row,
    amount_cents: row.amount_cents === null ? null : Number(row.amount_cents),
    reversed_cents: Number(row.reversed_cents),
  };
}

/**
 * Inserts a reversal unless the partner's transaction id (or, for a dispute, the donation) already names one;
 * returns the stored reversal and whether this call created it.
 */
export async function insertReversalOnce(
  trx: Kysely<DB>,
  reversal: Insertable<DonationReversalsTable>,
): Promise<{ reversal: DonationReversal; created: boolean }> {
  const inserted = await trx
    .insertInto('donation_reversals')
    .values(reversal)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { reversal: inserted, created: true };
  let existing = trx.selectFrom('donation_reversals').selectAll();
  existing =
    reversal.transaction_id !== null && reversal.transaction_id !== undefined
      ? existing
          .where('partner_id', '=', reversal.partner_id)
          .where('environment', '=', reversal.environment)
          .where('transaction_id', '=', reversal.transaction_id)
      : existing.where('donation_id', '=', reversal.donation_id).where('reason', '=', 'disputed');
  return { reversal: await existing.executeTakeFirstOrThrow(), created: false };
}

/** Adds to what reversals took back of a donation (under the lock of lockDonationToReverse). */
export async function addReversed(trx: Kysely<DB>, donationId: string, cents: number): Promise<void> {
  await sql`update donations set reversed_cents = reversed_cents + ${cents} where id = ${donationId}`.execute(trx);
}

/** A donation's reversals, oldest first. */
export function reversalsOf(db: Kysely<DB>, donationId: string) {
  return db.selectFrom('donation_reversals').selectAll().where('donation_id', '=', donationId).orderBy('seq').execute();
}
