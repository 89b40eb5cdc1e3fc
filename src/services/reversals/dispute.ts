import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import { lockDonationToReverse } from '../../infrastructure/repositories/reversals.js';
import { reverseDonation } from './reverse-donation.js';

/**
 * Inside the caller's transaction: a disputed debit's donation is reversed by itself, for what is left of it (a
 * partner may have refunded part already), with reason `disputed`. The money went back through the bank, so it is
 * owed back like any reversal after settlement; one dispute is one reversal, however often the provider says so.
 */
export async function reverseDisputedDonation(trx: Kysely<DB>, donationReferenceId: string): Promise<void> {
  const donation = await lockDonationToReverse(trx, donationReferenceId);
  if (!donation || donation.amount_cents === null) return;
  const left = donation.amount_cents - donation.reversed_cents;
  if (left <= 0) return;
  await reverseDonation(trx, {
    referenceId: donationReferenceId,
    amountCents: left,
    reason: 'disputed',
    requestedBy: 'provider',
  });
}
