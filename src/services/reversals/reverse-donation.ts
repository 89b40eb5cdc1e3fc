import type { Kysely } from 'kysely';
import { ApiError } from '../../api-errors.js';
import { formatCents } from '../../domain/money.js';
import { netCents, reversalProblem, type ReversalReason } from '../../domain/reversal.js';
import { randomBase32 } from '../../domain/reference-ids.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { DonationReversal } from '../../infrastructure/db/schema-reversals.js';
import {
  addReversed,
  insertReversalOnce,
  lockDonationToReverse,
  type DonationToReverse,
} from '../../infrastructure/repositories/reversals.js';
import { reviseAfterReversal } from '../receipts/revise.js';
import { recordEvent } from '../webhooks/record-event.js';
import { toReversalRecord } from './records.js';

const newReversalId = () => `REV-${randomBase32(16)}`;

/** A reversal to make: of which donation, how much, why, who asks, and the partner's id of it if any. */
export interface ReversalOrder {
  referenceId: string;
  amountCents: number;
  reason: ReversalReason;
  transactionId?: string;
  /** `partner`, `provider`, or an operator's e-mail. */
  requestedBy: string;
  note?: string;
  requestHash?: string;
  correlationId?: string;
}

export type ReversalOutcome =
  { made: true; reversal: DonationReversal } | { made: false; reversal: DonationReversal; replay: true };

/**
 * Inside the caller's transaction: reverses a donation, whole or in part. The donation row is locked while the
 * reversal is checked and written, so concurrent reversals of it are decided one after the other and never sum to
 * more than it; the partner's transaction id (a dispute: the donation) is a natural key, so a retry finds the
 * reversal the first one made. After settlement the money is owed back. Partners are told (`donation.reversed`).
 * `owner` restricts it to a partner's own donations (another's answers like an unknown one).
 */
export async function reverseDonation(
  trx: Kysely<DB>,
  order: ReversalOrder,
  owner?: { partnerId: string; environment: string },
): Promise<ReversalOutcome> {
  const donation = await lockDonationToReverse(trx, order.referenceId, owner);
  if (!donation) throw new ApiError('NOT_FOUND', `No donation with reference id ${order.referenceId}`);
  const { reversal, created } = await insertReversalOnce(trx, row(donation, order));
  if (!created) return { made: false, reversal, replay: true };
  const problem = reversalProblem(
    { referenceId: donation.reference_id, amountCents: donation.amount_cents, reversedCents: donation.reversed_cents },
    order.amountCents,
  );
  // Checked after the insert claimed the natural key, so a replay of a reversal that used up the donation is a
  // replay, not a refusal; the refusal rolls the insert back with the rest of the transaction.
  if (problem) throw new ApiError(problem.startsWith('amount:') ? 'VALIDATION' : 'CONFLICT', problem);
  await addReversed(trx, donation.id, order.amountCents);
  const left = netCents(donation.amount_cents!, donation.reversed_cents + order.amountCents);
  // The donor's receipt follows the money: voided, and reissued for what is left (docs/receipts.md).
  await reviseAfterReversal(trx, donation.id, { netCents: left, reason: order.reason });
  await recordEvent(trx, { partnerId: donation.partner_id, environment: donation.environment }, 'donation.reversed', {
    reversal: toReversalRecord(reversal),
    netAmount: formatCents(left),
  });
  return { made: true, reversal };
}

function row(donation: DonationToReverse, order: ReversalOrder) {
  return {
    id: newReversalId(),
    donation_id: donation.id,
    donation_reference_id: donation.reference_id,
    partner_id: donation.partner_id,
    environment: donation.environment,
    amount_cents: order.amountCents,
    reason: order.reason,
    transaction_id: order.transactionId ?? null,
    requested_by: order.requestedBy,
    note: order.note ?? null,
    owed_back: donation.settled,
    request_hash: order.requestHash ?? null,
    correlation_id: order.correlationId ?? null,
  };
}
