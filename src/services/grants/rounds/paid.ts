import { lockRound, updateRoundIf } from '../../../infrastructure/repositories/grant-rounds.js';
import { markLinesPaid } from '../../../infrastructure/repositories/grants.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { ConflictError, NotFoundError } from '../../operators/operator-errors.js';
import { afterRoundPaid } from './on-paid.js';
import { roundView, type RoundView } from './view.js';

/**
 * Marks an approved round paid (its file was uploaded to the bank), once: its grants are paid, who and when are
 * kept, and what follows a payment (acquittals, advices) is written in the same transaction. A second call is
 * refused, saying when and by whom it was marked.
 */
export async function markRoundPaid(
  ctx: OperatorContext,
  number: number,
  settings: { acquittalDueDays: number; timeZone: string },
): Promise<RoundView & { grantsPaid: number }> {
  return inTransaction(ctx, async (tx) => {
    const round = await lockRound(tx.db, number);
    if (!round) throw new NotFoundError(`There is no grant round ${number}.`);
    if (round.status === 'paid')
      throw new ConflictError(
        `Round ${number} was already marked paid by ${round.paid_by} at ${new Date(round.paid_at!).toISOString()}: nothing changed.`,
      );
    if (round.status !== 'approved')
      throw new ConflictError(`Round ${number} is ${round.status}: only an approved round is paid.`);
    const at = tx.now();
    const change = { status: 'paid' as const, paid_by: tx.operator, paid_at: at };
    if (!(await updateRoundIf(tx.db, round.id, 'approved', change)))
      throw new ConflictError(`Round ${number} changed while it was being marked paid: show it again.`);
    const grantsPaid = await markLinesPaid(tx.db, round.id);
    const paid = { ...round, ...change };
    await afterRoundPaid(tx.db, paid, { ...settings, at });
    await audit(tx, AuditActions.grantRoundPaid, `round:${number}`, {
      totalCents: String(round.total_cents),
      grantsPaid,
    });
    return { ...roundView(paid), grantsPaid };
  });
}
