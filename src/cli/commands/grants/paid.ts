import type { Command } from 'commander';
import { markRoundPaid } from '../../../services/grants/rounds/paid.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { roundText, withRound } from './shared.js';

/** grants paid */
export function registerGrantsPaid(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      withRound(
        grants
          .command('paid')
          .description('Mark an approved round paid once its file was uploaded to the bank; once (audited)'),
      ),
    ),
  ).action((options: { round: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const round = await markRoundPaid(ops, options.round, {
        acquittalDueDays: config.ACQUITTAL_DUE_DAYS,
        timeZone: config.FOUNDATION_TIME_ZONE,
      });
      out.emit(round, () => `Round ${round.number} marked paid: ${round.grantsPaid} grants.\n${roundText(round)}`);
    }),
  );
}
