import { Option, type Command } from 'commander';
import { PLAN_STATUSES } from '../../../domain/recurring.js';
import { listPlans } from '../../../services/operators/recurring.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { planColumns, planJson } from './shared.js';

/** recurring list */
export function registerRecurringList(recurring: Command, ctx: CliContext) {
  withJson(
    recurring
      .command('list')
      .description('List recurring donations, newest first')
      .addOption(new Option('--status <status>', 'only plans with this status').choices(PLAN_STATUSES))
      .option('--partner <partner>', 'only this partner (name or id)')
      .option('--mandate <mandateId>', 'only the plans of this mandate')
      .option('--limit <n>', 'at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { status?: string; partner?: string; mandate?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listPlans(ops, options);
      out.emit(rows.map(planJson), () => tableOr(rows, planColumns, 'No recurring donations match.'));
    }),
  );
}
