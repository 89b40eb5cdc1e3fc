import type { Command } from 'commander';
import { showPlan } from '../../../services/operators/recurring.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { debitColumns } from '../debits/shared.js';
import { detailJson, planFields } from './shared.js';

/** recurring show */
export function registerRecurringShow(recurring: Command, ctx: CliContext) {
  withJson(
    recurring
      .command('show')
      .description('Show one recurring donation and its debits')
      .argument('<id>', 'the recurringDonationId (RDN-…)'),
  ).action((id: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await showPlan(ops, id);
      out.emit(detailJson(detail), () =>
        [planFields(detail.plan), tableOr(detail.debits, debitColumns, 'No debits yet.')].join('\n'),
      );
    }),
  );
}
