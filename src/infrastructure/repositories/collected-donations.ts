import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Debit } from '../db/schema-recurring.js';

/**
 * The donation a collected debit becomes: the same record POST /donations writes (partner, environment flag,
 * channel, fundraiser), the payer the mandate's, collected by the foundation and settled at once by the debit (its
 * money is already the foundation's). Unique per debit. Returns the donation's id.
 */
export async function insertCollectedDonation(
  trx: Kysely<DB>,
  { debit, referenceId, at }: { debit: Debit; referenceId: string; at: Date },
): Promise<string> {
  const metadata = JSON.stringify({
    collectedBy: 'foundation',
    debitId: debit.id,
    ...(debit.plan_id ? { recurringDonationId: debit.plan_id, sequence: debit.sequence } : {}),
    ...(debit.transaction_id ? { debitTransactionId: debit.transaction_id } : {}),
  });
  const { rows } = await sql<{ id: string }>`
    insert into donations (
      reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id, donor_email,
      donor_first_name, donor_last_name, transaction_at, amount_cents, source_metadata, request_hash, correlation_id,
      collected_by, debit_id
    )
    select ${referenceId}, ${debit.partner_id}, ${debit.environment}, ${debit.is_live}, m.channel, m.account_id,
      m.fundraiser_id, m.fundraiser_email, m.fundraiser_first_name, m.fundraiser_last_name, ${at.toISOString()}::timestamptz,
      ${Number(debit.amount_cents)}, ${metadata}::jsonb, ${`debit:${debit.id}`}, ${debit.correlation_id},
      'foundation', ${debit.id}
    from mandates m where m.id = ${debit.mandate_id}
    returning id`.execute(trx);
  const donationId = rows[0]!.id;
  await trx
    .insertInto('donation_settlements')
    .values({
      donation_id: donationId,
      donation_reference_id: referenceId,
      partner_id: debit.partner_id,
      environment: debit.environment,
      bank_reference_id: null,
      batch_id: null,
      position: null,
      debit_id: debit.id,
      amount_cents: Number(debit.amount_cents),
      settled_at: at,
    })
    .execute();
  return donationId;
}
