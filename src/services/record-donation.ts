import type { Kysely } from 'kysely';
import { normaliseDonation, type DonationRequest } from '../domain/donation.js';
import type { Principal } from '../domain/principal.js';
import { newDonationReferenceId } from '../domain/reference-ids.js';
import { requestHash } from '../domain/request-hash.js';
import { ApiError } from '../errors.js';
import type { DB } from '../infrastructure/db/schema.js';
import { insertDonationOnce } from '../infrastructure/repositories/donations.js';
import { requireEnrolment } from './enrolment.js';
import { idempotent } from './idempotency.js';

export interface RequestContext {
  principal: Principal;
  correlationId: string;
  idempotencyKey: string | undefined;
  isLive: boolean;
}

/**
 * Records a donation collected on the partner platform (section 4.5). A retry never creates a second record: the
 * transaction id is a natural key and an Idempotency-Key replays the first answer (DESIGN.md §10).
 */
export async function recordDonation(db: Kysely<DB>, request: DonationRequest, context: RequestContext) {
  const { principal } = context;
  const { account } = await requireEnrolment(db, request.source.fundraiserId, request.source.channel);
  const normalised = normaliseDonation(request);
  if ('errors' in normalised) throw new ApiError('VALIDATION', normalised.errors.join('; '));
  const { donor, transaction } = normalised.value;
  const hash = requestHash(request);

  const store = async (executor: Kysely<DB>) => {
    const stored = await insertDonationOnce(executor, {
      reference_id: newDonationReferenceId(),
      partner_id: principal.partnerId,
      environment: principal.environment,
      is_live: context.isLive,
      channel: request.source.channel,
      account_id: account.id,
      fundraiser_id: request.source.fundraiserId,
      fundraiser_account_name: request.source.fundraiserAccountName ?? null,
      product_enrollment_id: request.source.productEnrollmentId ?? null,
      donor_email: donor.email,
      donor_verified_email: donor.verifiedEmail,
      donor_first_name: donor.firstName,
      donor_last_name: donor.lastName,
      donor_mobile: donor.mobile,
      donor_business_name: donor.businessName,
      address_street: donor.street,
      address_city: donor.city,
      address_state: donor.state,
      address_postal_code: donor.postalCode,
      address_country: donor.country,
      transaction_id: transaction.id,
      transaction_date_raw: transaction.dateRaw,
      transaction_at: transaction.at,
      amount_cents: transaction.amountCents,
      source_metadata: request.sourceMetadata === undefined ? null : JSON.stringify(request.sourceMetadata),
      request_hash: hash,
      correlation_id: context.correlationId,
    });
    if (!stored.created && stored.requestHash !== hash) {
      throw new ApiError('CONFLICT', `transaction.id ${JSON.stringify(transaction.id)} was already recorded with different content (donationReferenceId ${stored.referenceId})`);
    }
    return { status: 200, items: { donationReferenceId: stored.referenceId }, replayed: !stored.created };
  };
  // Without an Idempotency-Key there is nothing to claim beside the row: the INSERT is one statement, atomic on its
  // own, and the unique index on the natural key still decides between concurrent retries. A transaction would
  // only add BEGIN and COMMIT round trips (three instead of one per donation).
  if (context.idempotencyKey === undefined) return store(db);
  return idempotent(db, { partnerId: principal.partnerId, key: context.idempotencyKey, operation: 'POST /donations', requestHash: hash }, store);
}
