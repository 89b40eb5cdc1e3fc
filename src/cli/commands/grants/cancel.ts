import type { Command } from 'commander';
import { cancelRound } from '../../../services/grants/rounds/cancel.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { roundText, withRound } from './shared.js';

/** grants cancel */
export function registerGrantsCancel(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      withRound(
        grants
          .command('cancel')
          .description('Cancel a draft round: its donations are free for the next round (audited)')
          .requiredOption('--reason <text>', 'why, kept on the round and in the audit log'),
      ),
    ),
  ).action((options: { round: number; reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const round = await cancelRound(ops, options.round, options.reason);
      out.emit(round, () => `Round ${round.number} cancelled.\n${roundText(round)}`);
    }),
  );
}
