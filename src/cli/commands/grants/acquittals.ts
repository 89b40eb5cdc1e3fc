import type { Command } from 'commander';
import { acquittalsList } from '../../../services/operators/grant-acquittals.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { formatAud, tableOr } from '../../output.js';

/** grants acquittals */
export function registerGrantsAcquittals(grants: Command, ctx: CliContext) {
  withJson(
    grants
      .command('acquittals')
      .description('The acquittals not recorded yet, soonest due first (or only the overdue ones)')
      .option('--overdue', "only those past their due day (they hold the club's further grants)")
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 100_000), 1000),
  ).action((options: { overdue?: boolean; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const list = await acquittalsList(ops, options, config.FOUNDATION_TIME_ZONE);
      out.emit(list, () =>
        tableOr(
          list,
          [
            { header: 'Grant', value: (a) => a.lodgementReference },
            { header: 'Club', value: (a) => `${a.club} (${a.memberNumber})` },
            { header: 'AUD', value: (a) => formatAud(a.grantCents) },
            { header: 'Due', value: (a) => a.dueOn },
            { header: 'State', value: (a) => a.state },
            { header: 'Reminded', value: (a) => a.remindedAt },
          ],
          options.overdue ? 'No acquittal is overdue.' : 'No acquittal is open.',
        ),
      );
    }),
  );
}
