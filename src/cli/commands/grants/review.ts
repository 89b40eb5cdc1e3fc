import type { Command } from 'commander';
import { reviewRound } from '../../../services/grants/rounds/review.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { roundText, withRound } from './shared.js';

/** grants review */
export function registerGrantsReview(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      withRound(grants.command('review').description('Record your review of a draft round, as an admin (audited)')),
    ),
  ).action((options: { round: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const round = await reviewRound(ops, options.round);
      out.emit(round, () => `Round ${round.number} reviewed by ${round.reviewedBy}.\n${roundText(round)}`);
    }),
  );
}
