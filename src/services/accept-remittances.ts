import type { RemittancesRequest } from '../contract/remittances.js';
import type { Kysely } from 'kysely';
import { numberToCents } from '../domain/money.js';
import { requestHash } from '../domain/request-hash.js';
import { ApiError } from '../api-errors.js';
import type { DB } from '../infrastructure/db/schema.js';
import { accountsOfDonationsNotEnrolled } from '../infrastructure/repositories/accounts.js';
import { insertRemittanceBatch } from '../infrastructure/repositories/remittances.js';
import { checkEnrolment } from './enrolment.js';
import { idempotent, idempotencyScope } from './idempotency.js';
import type { RequestContext } from './record-donation.js';

/** Hook for what happens to a stored batch (reconciliation); called inside the storing transaction. */
export type OnBatchStored = (trx: Kysely<DB>, batchId: string) => Promise<void>;

/**
 * Accepts a remittance batch (section 4.8): 406 when the batch's fundraiser, or the fundraiser of any of the
 * partner's referenced donations, has no active enrolment with the channel; otherwise stored durably in one
 * transaction before the 202 (docs/decisions/0015-remittance-batches-stored-before-the-202.md). Unknown donation
 * ids are not an error here: reconciliation reports them.
 */
export async function acceptRemittances(
  db: Kysely<DB>,
  request: RemittancesRequest,
  context: RequestContext,
  onStored?: OnBatchStored,
  /**
   * The refusal of new batches while reconciliation catches up (BacklogGate), or null: thrown for a batch this
   * request would store, never for the replay of one already accepted under its Idempotency-Key
   * (docs/decisions/0081-remittance-backlog-refused-at-the-door.md).
   */
  refusal: ApiError | null = null,
) {
  const { principal } = context;
  // Without a key nothing can be replayed: refused before any read.
  if (refusal && context.idempotencyKey === undefined) throw refusal;
  const { source } = request;
  const enrolment = await checkEnrolment(db, source.fundraiserId, source.channel);
  if (!enrolment.enrolled) throw new ApiError('REMITTANCE_NOT_ACCEPTED', enrolment.reason);
  const donationIds = [...new Set(request.remittances.flatMap((entry) => entry.donationIds))];
  const notEnrolled = await accountsOfDonationsNotEnrolled(db, principal, donationIds, source.channel);
  if (notEnrolled.length > 0) {
    throw new ApiError(
      'REMITTANCE_NOT_ACCEPTED',
      `Fundraisers of referenced donations not enrolled in product ${source.channel}: ${notEnrolled.join(', ')}`,
    );
  }
  const hash = requestHash(request);
  return idempotent(db, idempotencyScope(context, 'POST /remittances', hash), async (trx) => {
    // The key was claimed just now: this is new work, and the claim is rolled back with the refusal.
    if (refusal) throw refusal;
    const batchId = await insertRemittanceBatch(trx, {
      partnerId: principal.partnerId,
      environment: principal.environment,
      channel: source.channel,
      fundraiserId: source.fundraiserId,
      accountId: enrolment.account.id,
      requestHash: hash,
      correlationId: context.correlationId,
      entries: request.remittances.map((entry) => ({
        bankReferenceId: entry.bankReferenceId,
        // The schema's amount-aud format guarantees a positive amount with at most two decimals.
        amountCents: numberToCents(entry.amount)!,
        donationIds: entry.donationIds,
      })),
    });
    if (onStored) await onStored(trx, batchId);
    return { status: 202, items: { status: 'Request Accepted', batchId } };
  });
}
