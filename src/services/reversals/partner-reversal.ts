import type { Kysely } from 'kysely';
import { ApiError } from '../../api-errors.js';
import type { ReversalRequest } from '../../contract/reversals.js';
import { parseDecimalToCents } from '../../domain/money.js';
import { requestHash } from '../../domain/request-hash.js';
import type { DB } from '../../infrastructure/db/schema.js';
import { idempotent, idempotencyScope } from '../idempotency.js';
import type { RequestContext } from '../record-donation.js';
import { toReversalRecord } from './records.js';
import { reverseDonation } from './reverse-donation.js';

/**
 * POST /donations/{donationReferenceId}/reversals: the partner takes back the whole donation or part of it. A
 * retry never reverses twice: `transaction.id` is a natural key (the same id with another body is 409) and an
 * Idempotency-Key replays the first answer. Another partner's donation answers like an unknown one.
 */
export async function reverseOwnDonation(
  db: Kysely<DB>,
  referenceId: string,
  request: ReversalRequest,
  context: RequestContext,
) {
  const hash = requestHash({ referenceId, ...request });
  const scope = idempotencyScope(context, 'POST /donations/:id/reversals', hash);
  return idempotent(db, scope, async (trx) => {
    const outcome = await reverseDonation(
      trx,
      {
        referenceId,
        amountCents: parseDecimalToCents(request.amount)!,
        reason: request.reason,
        ...(request.transaction ? { transactionId: request.transaction.id } : {}),
        requestedBy: 'partner',
        requestHash: hash,
        correlationId: context.correlationId,
      },
      context.principal,
    );
    if (!outcome.made && outcome.reversal.request_hash !== hash)
      throw new ApiError(
        'CONFLICT',
        `transaction.id ${JSON.stringify(request.transaction?.id)} was already used for reversal ${outcome.reversal.id} with other content`,
      );
    return { status: outcome.made ? 201 : 200, items: toReversalRecord(outcome.reversal), replayed: !outcome.made };
  });
}
