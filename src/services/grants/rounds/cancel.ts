import { releaseClaims } from '../../../infrastructure/repositories/grant-drafting.js';
import { lockRound, updateRoundIf } from '../../../infrastructure/repositories/grant-rounds.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../operators/operator-errors.js';
import { roundView, type RoundView } from './view.js';

/**
 * Cancels a draft: its claims are released (its donations, recoveries and returned grants are free for the next
 * round), its paid lines become cancelled and the round keeps why and by whom. An approved round is never cancelled.
 */
export async function cancelRound(ctx: OperatorContext, number: number, reason: string): Promise<RoundView> {
  const why = reason.trim();
  if (why === '') throw new InvalidInputError('--reason must say why the round is cancelled.');
  return inTransaction(ctx, async (tx) => {
    const round = await lockRound(tx.db, number);
    if (!round) throw new NotFoundError(`There is no grant round ${number}.`);
    if (round.status !== 'draft')
      throw new ConflictError(`Round ${number} is ${round.status}: only a draft can be cancelled.`);
    const at = tx.now();
    const change = { status: 'cancelled' as const, cancelled_by: tx.operator, cancelled_at: at, cancel_reason: why };
    await releaseClaims(tx.db, round.id);
    if (!(await updateRoundIf(tx.db, round.id, 'draft', change)))
      throw new ConflictError(`Round ${number} changed while it was being cancelled: show it again.`);
    await audit(tx, AuditActions.grantRoundCancel, `round:${number}`, { reason: why });
    return roundView({ ...round, ...change });
  });
}
