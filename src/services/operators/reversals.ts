import { ApiError } from '../../api-errors.js';
import { formatCents, parseDecimalToCents } from '../../domain/money.js';
import { REQUESTABLE_REASONS, type ReversalReason } from '../../domain/reversal.js';
import {
  listReversalRows,
  lockReversal,
  markReversalRepaid,
  type ReversalRow,
} from '../../infrastructure/repositories/reversal-admin.js';
import { reverseDonation } from '../reversals/reverse-donation.js';
import { AuditActions, audit } from './audit.js';
import { inTransaction, type OperatorContext } from './context.js';
import { ConflictError, InvalidInputError, NotFoundError, OperatorError } from './operator-errors.js';

/**
 * Reversals made by operators and repayments marked by finance (docs/reversals.md, "Operators"). The CLI's
 * `donations reverse` and `reversals repaid` and the console's forms call these; each change is audited in its own
 * transaction, with the donation's reference as the subject so that its whole history is found by it.
 */
export type { ReversalRow };

/** Whether a reversal's money is owed back, was repaid, or was never received (reversed before settlement). */
export const owedBackState = (r: ReversalRow): string =>
  !r.owedBack ? 'no (before settlement)' : r.repaidAt ? `repaid by ${r.repaidBy ?? '?'}` : 'yes';

export interface OperatorReversalOrder {
  referenceId: string;
  /** AUD as typed: "5", "5.00". */
  amount: string;
  reason: string;
  note: string;
}

/** The longest note kept: a sentence or two, not a document. */
const MAX_NOTE = 500;
const CONTROL = /\p{Cc}/u;

/**
 * The values `reverseDonation` records as who asked for a partner's own reversal or a disputed debit's: an operator
 * of that name would be told to the partner as the partner or the bank (src/services/reversals/records.ts).
 */
const RESERVED_REQUESTERS = new Set(['partner', 'provider']);

/** A note for the audit log and the finance list: one line, said. */
function requireNote(note: string, what: string): string {
  const text = note.trim();
  if (text === '') throw new InvalidInputError(`Say why in a note (${what}): it is audited.`);
  if (text.length > MAX_NOTE) throw new InvalidInputError(`The note is longer than ${MAX_NOTE} characters.`);
  if (CONTROL.test(text)) throw new InvalidInputError('The note must be one line of text, without control characters.');
  return text;
}

/**
 * Reverses any partner's donation for the foundation, whole or in part, under the same rules as a partner's own
 * reversal (the core locks the donation: never more than it). The partner is told by `donation.reversed` that the
 * foundation asked, never who; the audit entry, in the same transaction, says who, how much, why and the note.
 */
export async function reverseByOperator(ctx: OperatorContext, order: OperatorReversalOrder): Promise<ReversalRow> {
  const amountCents = parseDecimalToCents(order.amount.trim());
  if (!amountCents)
    throw new InvalidInputError(
      `${JSON.stringify(order.amount)} is not an amount to reverse: give AUD above zero with at most two decimals, e.g. 5.00.`,
    );
  if (!(REQUESTABLE_REASONS as readonly string[]).includes(order.reason))
    throw new InvalidInputError(
      `${JSON.stringify(order.reason)} is not a reason: use one of ${REQUESTABLE_REASONS.join(', ')}.`,
    );
  const note = requireNote(order.note, 'the note');
  if (RESERVED_REQUESTERS.has(ctx.operator))
    throw new InvalidInputError(`"${ctx.operator}" cannot name an operator here: give your own name (--operator).`);
  const reversalId = await inTransaction(ctx, async (tx) => {
    const outcome = await reverseDonation(
      tx.db,
      {
        referenceId: order.referenceId,
        amountCents,
        reason: order.reason as ReversalReason,
        requestedBy: ctx.operator,
        note,
      },
      undefined,
    );
    const { reversal } = outcome;
    await audit(tx, AuditActions.donationReverse, order.referenceId, {
      reversalId: reversal.id,
      partnerId: reversal.partner_id,
      amount: formatCents(amountCents),
      reason: order.reason,
      note,
      owedBack: reversal.owed_back,
    });
    return reversal.id;
  }).catch((err: unknown) => {
    throw operatorErrorOf(err, order.referenceId);
  });
  return (await listReversalRows(ctx.db, { reversalId, limit: 1 }))[0]!;
}

/** The core speaks to partners (ApiError); operators get the same facts as errors they can act on. */
function operatorErrorOf(err: unknown, referenceId: string): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.kind === 'NOT_FOUND')
    return new NotFoundError(`No donation with reference id ${JSON.stringify(referenceId)} (see "donations find").`);
  const cause = (err.cause ?? err.message).replace(/^amount: at/, 'At');
  if (err.kind === 'VALIDATION') return new InvalidInputError(`${cause}.`);
  if (err.kind === 'CONFLICT') return new ConflictError(`${cause}.`);
  return new OperatorError(cause);
}

/**
 * Marks a reversal owed back as repaid: the money went back to the partner. Locked first, so two clerks marking it
 * at once are decided in turn and it is audited once; refused for one made before settlement (nothing is owed)
 * or already repaid.
 */
export async function markRepaid(ctx: OperatorContext, reversalId: string, note: string): Promise<ReversalRow> {
  const why = requireNote(note, 'how it was repaid');
  await inTransaction(ctx, async (tx) => {
    const reversal = await lockReversal(tx.db, reversalId);
    if (!reversal) throw new NotFoundError(`No reversal with id ${JSON.stringify(reversalId)} (see "reversals owed").`);
    if (!reversal.owed_back)
      throw new ConflictError(
        `Reversal ${reversalId} was made before its donation was settled: nothing is owed back, so nothing is repaid.`,
      );
    if (reversal.repaid_at !== null)
      throw new ConflictError(
        `Reversal ${reversalId} was already marked repaid by ${reversal.repaid_by ?? 'someone'} at ${new Date(reversal.repaid_at).toISOString()}.`,
      );
    await markReversalRepaid(tx.db, reversalId, tx.now(), tx.operator);
    await audit(tx, AuditActions.reversalRepaid, reversal.donation_reference_id, {
      reversalId,
      partnerId: reversal.partner_id,
      amount: formatCents(Number(reversal.amount_cents)),
      note: why,
    });
  });
  return (await listReversalRows(ctx.db, { reversalId, limit: 1 }))[0]!;
}
