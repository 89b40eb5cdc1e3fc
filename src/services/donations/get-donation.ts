import type { Kysely } from 'kysely';
import { ApiError } from '../../api-errors.js';
import type { DonationRecord } from '../../contract/donation-record.js';
import { formatCents } from '../../domain/money.js';
import type { Principal } from '../../domain/principal.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { findOwnDonation } from '../../infrastructure/repositories/partner-donations.js';
import { reversalsOf } from '../../infrastructure/repositories/reversals.js';
import { toReversalRecord } from '../reversals/records.js';

type Row = NonNullable<Awaited<ReturnType<typeof findOwnDonation>>>;

const present = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * GET /donations/{donationReferenceId}: the partner's own donation as recorded (donor data as stored from what it
 * sent), its net amount after reversals, its reversals, and whether and how it was settled. Another partner's
 * donation answers exactly like an unknown one.
 */
export async function getOwnDonation(
  db: Kysely<DB>,
  principal: Principal,
  referenceId: string,
): Promise<DonationRecord> {
  const row = await findOwnDonation(db, principal, referenceId);
  if (!row) throw new ApiError('NOT_FOUND', `No donation with reference id ${referenceId}`);
  const reversals = await reversalsOf(db, row.id);
  const amount = row.amount_cents === null ? null : Number(row.amount_cents);
  const reversed = Number(row.reversed_cents);
  const owed = reversals
    .filter((r) => r.owed_back && r.repaid_at === null)
    .reduce((sum, r) => sum + Number(r.amount_cents), 0);
  return {
    donationReferenceId: row.reference_id,
    receivedAt: iso(row.created_at),
    collectedBy: row.collected_by,
    source: {
      channel: row.channel,
      fundraiserId: row.fundraiser_id,
      fundraiserAccountName: present(row.fundraiser_account_name),
      productEnrollmentId: present(row.product_enrollment_id),
    },
    donor: donorOf(row),
    transaction: { id: present(row.transaction_id), date: present(row.transaction_date_raw) },
    ...(row.source_metadata === null ? {} : { sourceMetadata: row.source_metadata as Record<string, unknown> }),
    amount: amount === null ? null : formatCents(amount),
    reversedAmount: formatCents(reversed),
    netAmount: amount === null ? null : formatCents(amount - reversed),
    reversals: reversals.map(toReversalRecord),
    settlement: settlementOf(row),
    owedBack: formatCents(owed),
  };
}

function donorOf(row: Row): DonationRecord['donor'] {
  return {
    email: row.donor_email,
    firstName: row.donor_first_name,
    lastName: row.donor_last_name,
    mobile: present(row.donor_mobile),
    businessName: present(row.donor_business_name),
    verifiedEmail: present(row.donor_verified_email),
    shareNameWithFundraiser: row.donor_name_shared,
    billingAddress: {
      street: present(row.address_street),
      city: present(row.address_city),
      state: present(row.address_state),
      postalCode: present(row.address_postal_code),
      country: present(row.address_country),
    },
  };
}

function settlementOf(row: Row): DonationRecord['settlement'] {
  if (!row.settled_at) return null;
  if (row.settled_debit_id) return { by: 'debit', debitId: row.settled_debit_id, settledAt: iso(row.settled_at) };
  return {
    by: 'remittance',
    batchId: row.settled_batch_id ?? '',
    bankReferenceId: row.settled_bank_reference_id ?? '',
    entryIndex: row.settled_position ?? 0,
    settledAt: iso(row.settled_at),
  };
}
