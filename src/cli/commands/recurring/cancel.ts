import type { Command } from 'commander';
import { cancelPlanByOperator } from '../../../services/operators/recurring.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { detailJson } from './shared.js';

/** recurring cancel */
export function registerRecurringCancel(recurring: Command, ctx: CliContext) {
  withOperator(
    withJson(
      recurring
        .command('cancel')
        .description('Cancel a recurring donation for the foundation: no further debit; the partner is told')
        .argument('<id>', 'the recurringDonationId (RDN-…)')
        .requiredOption('--reason <text>', 'why, for the audit log (the partner reads "Canceled by the foundation")'),
    ),
  ).action((id: string, options: { reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await cancelPlanByOperator(ops, id, options.reason);
      out.emit(
        detailJson(detail),
        () =>
          `Recurring donation ${id} canceled: no further debit. A debit already with the bank goes on to its outcome.`,
      );
    }),
  );
}
