import { listRounds } from '../../../infrastructure/repositories/grant-rounds.js';
import type { OperatorContext } from '../../operators/context.js';
import { roundView, type RoundView } from './view.js';

/** The rounds, newest first (read-only, not audited: they hold no bank details). */
export async function listGrantRounds(ctx: OperatorContext, limit: number): Promise<RoundView[]> {
  return (await listRounds(ctx.db, limit)).map(roundView);
}
