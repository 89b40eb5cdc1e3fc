import type { Command } from 'commander';
import { abaPayer } from '../../../config/index.js';
import { approveRound } from '../../../services/grants/rounds/approve.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { roundText, withRound } from './shared.js';

/** grants approve */
export function registerGrantsApprove(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      withRound(
        grants
          .command('approve')
          .description('Approve a reviewed draft, as an admin who neither drafted nor reviewed it; makes the ABA file'),
      ),
    ),
  ).action((options: { round: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const round = await approveRound(ops, options.round, {
        payer: abaPayer(config),
        timeZone: config.FOUNDATION_TIME_ZONE,
      });
      out.emit(round, () => `Round ${round.number} approved by ${round.approvedBy}.\n${roundText(round)}`);
    }),
  );
}
