import type { ReversalRecord } from '../../contract/reversals.js';
import { formatCents } from '../../domain/money.js';
import type { DonationReversal } from '../../infrastructure/db/schema-reversals.js';

/** Who asked for a reversal, as partners are told: never an operator's name. */
function requester(requestedBy: string): ReversalRecord['requestedBy'] {
  if (requestedBy === 'partner') return 'partner';
  return requestedBy === 'provider' ? 'payment provider' : 'foundation';
}

export function toReversalRecord(reversal: DonationReversal): ReversalRecord {
  return {
    reversalId: reversal.id,
    donationReferenceId: reversal.donation_reference_id,
    amount: formatCents(Number(reversal.amount_cents)),
    reason: reversal.reason as ReversalRecord['reason'],
    transactionId: reversal.transaction_id,
    requestedBy: requester(reversal.requested_by),
    owedBack: reversal.owed_back,
    createdAt: new Date(reversal.created_at).toISOString(),
  };
}
