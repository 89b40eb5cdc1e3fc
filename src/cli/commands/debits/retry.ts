import type { Command } from 'commander';
import { retryDebit } from '../../../services/operators/recurring-debits.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** debits retry */
export function registerDebitsRetry(debits: Command, ctx: CliContext) {
  withOperator(
    withJson(
      debits
        .command('retry')
        .description(
          'Try a failed debit again today: its collection job is queued (of an active or past-due plan, or one-off)',
        )
        .argument('<debitId>', 'the debitId (DBT-…)'),
    ),
  ).action((debitId: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const result = await retryDebit(ops, debitId, config.FOUNDATION_TIME_ZONE);
      out.emit(
        result,
        () =>
          `Debit ${debitId}: try ${result.attempt} queued for ${result.nextAttemptOn} (job ${result.jobId}). ` +
          'The running service submits it within seconds.',
      );
    }),
  );
}
