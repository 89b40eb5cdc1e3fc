import type { Command } from 'commander';
import { draftRound, todayIn } from '../../../services/grants/rounds/draft.js';
import { roundTerms } from '../../../services/grants/rounds/terms.js';
import { roundView } from '../../../services/grants/rounds/view.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { roundText } from './shared.js';

/** grants draft */
export function registerGrantsDraft(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('draft')
        .description('Draft a grant round now, off the schedule: what settled before the cut-off (audited)')
        .option('--cutoff <date>', "YYYY-MM-DD: pays what settled before this day starts (default: today's start)"),
    ),
  ).action((options: { cutoff?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const terms = roundTerms(config);
      const at = ops.now();
      const outcome = await draftRound(ops.db, terms, {
        scheduledOn: null,
        cutoffDay: options.cutoff?.trim() ?? todayIn(at, terms),
        by: ops.operator,
        at,
      });
      const round = roundView(outcome.round);
      out.emit(round, () => `Drafted round ${round.number}.\n${roundText(round)}`);
    }),
  );
}
