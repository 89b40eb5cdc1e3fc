import { abaFileOf } from '../../../infrastructure/repositories/grant-rounds.js';
import { AuditActions, audit } from '../../operators/audit.js';
import { inTransaction, type OperatorContext } from '../../operators/context.js';
import { ConflictError } from '../../operators/operator-errors.js';
import { requireRound } from './review.js';

/** The round's bank file as made at approval (the same bytes every time); every download is audited. */
export async function downloadAba(
  ctx: OperatorContext,
  number: number,
): Promise<{ fileName: string; bytes: Buffer; sha256: string }> {
  return inTransaction(ctx, async (tx) => {
    const round = await requireRound(tx, number);
    if (round.status !== 'approved' && round.status !== 'paid')
      throw new ConflictError(`Round ${number} is ${round.status}: its file is made when it is approved.`);
    const file = await abaFileOf(tx.db, round.id);
    if (!file) throw new ConflictError(`Round ${number} pays no grant: it has no file.`);
    await audit(tx, AuditActions.grantAbaDownload, `round:${number}`, { sha256: file.sha256 });
    return { fileName: `grants-round-${number}.aba`, ...file };
  });
}
