import type { Command } from 'commander';
import { showRound } from '../../../services/grants/rounds/review.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { reviewText, withRound } from './shared.js';

/** grants show */
export function registerGrantsShow(grants: Command, ctx: CliContext) {
  withJson(
    withRound(
      grants
        .command('show')
        .description('A round as reviewed: totals per club, the held list, what changed since the last round'),
    ),
  ).action((options: { round: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const review = await showRound(ops, options.round);
      out.emit(review, () => reviewText(review));
    }),
  );
}
