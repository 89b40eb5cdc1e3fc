import type { Kysely } from 'kysely';
import type { DonationRequest } from '../contract/donation.js';
import { normaliseDonation } from '../domain/donation.js';
import type { Principal } from '../domain/principal.js';
import { newDonationReferenceId } from '../domain/reference-ids.js';
import { requestHash } from '../domain/request-hash.js';
import { ApiError } from '../api-errors.js';
import type { DB, NewDonation } from '../infrastructure/db/schema.js';
import { insertDonationOnce, type StoredDonation } from '../infrastructure/repositories/donations.js';
import type { DonationWriter } from './donation-group-commit.js';
import { requireEnrolment, type EnrolmentCache } from './enrolment.js';
import { idempotent, idempotencyScope } from './idempotency.js';

export interface RequestContext {
  principal: Principal;
  correlationId: string;
  idempotencyKey: string | undefined;
  isLive: boolean;
}

/** What recording a donation needs: the database, this app's enrolment cache, and how donations are written. */
export interface DonationDeps {
  db: Kysely<DB>;
  enrolments: EnrolmentCache;
  /** Group commit or one statement each (DONATION_GROUP_COMMIT); used for requests without an Idempotency-Key. */
  donations: DonationWriter;
  /** FOUNDATION_TIME_ZONE: where a transaction.date without an offset is read. */
  timeZone: string;
}

/**
 * Records a donation collected on the partner platform (section 4.5). A retry never creates a second record: the
 * transaction id is a natural key and an Idempotency-Key replays the first answer
 * (docs/decisions/0012-idempotent-retries.md).
 */
export async function recordDonation(deps: DonationDeps, request: DonationRequest, context: RequestContext) {
  const { db, enrolments } = deps;
  // Field rules first, business rules after (docs/decisions/0003-order-of-checks-and-one-error-envelope.md); the
  // validator already ran these rules with the schema.
  const normalised = normaliseDonation(request, { timeZone: deps.timeZone });
  if ('errors' in normalised) throw new ApiError('VALIDATION', normalised.errors.join('; '));
  const { account } = await requireEnrolment(db, enrolments, request.source.fundraiserId, request.source.channel);
  const hash = requestHash(request);
  const row = donationRow(request, normalised.value, { accountId: account.id, hash, context });

  const store = async (write: (row: NewDonation) => Promise<StoredDonation>) => {
    const stored = await write(row);
    if (!stored.created && stored.requestHash !== hash) {
      throw new ApiError(
        'CONFLICT',
        `transaction.id ${JSON.stringify(row.transaction_id)} was already recorded with different content (donationReferenceId ${stored.referenceId})`,
      );
    }
    return { status: 200, items: { donationReferenceId: stored.referenceId }, replayed: !stored.created };
  };
  // Without an Idempotency-Key there is nothing to claim beside the row: the INSERT is one statement, atomic on its
  // own (shared with the donations arriving at the same moment, under group commit), and the unique index on the
  // natural key still decides between concurrent retries.
  if (context.idempotencyKey === undefined) return store((donation) => deps.donations.write(donation));
  return idempotent(db, idempotencyScope(context, 'POST /donations', hash), (trx) =>
    store((donation) => insertDonationOnce(trx, donation)),
  );
}

type Normalised = Extract<ReturnType<typeof normaliseDonation>, { value: unknown }>['value'];

/** The row of a donation: its normalised fields, who sent it, and a fresh reference id. */
function donationRow(
  request: DonationRequest,
  { donor, transaction }: Normalised,
  { accountId, hash, context }: { accountId: string; hash: string; context: RequestContext },
): NewDonation {
  const { principal } = context;
  return {
    reference_id: newDonationReferenceId(),
    partner_id: principal.partnerId,
    environment: principal.environment,
    is_live: context.isLive,
    channel: request.source.channel,
    account_id: accountId,
    fundraiser_id: request.source.fundraiserId,
    fundraiser_account_name: request.source.fundraiserAccountName ?? null,
    product_enrollment_id: request.source.productEnrollmentId ?? null,
    donor_email: donor.email,
    donor_verified_email: donor.verifiedEmail,
    donor_first_name: donor.firstName,
    donor_last_name: donor.lastName,
    donor_mobile: donor.mobile,
    donor_business_name: donor.businessName,
    // Left to the column's default (false) when not given, so the usual insert keeps one statement text.
    donor_name_shared: donor.nameShared ? true : undefined,
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
  };
}
