import type { Command } from 'commander';
import { receiptPolicy } from '../../../config/receipts.js';
import { statementsOnDemand } from '../../../services/operators/receipt-register.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** receipts statement */
export function registerReceiptsStatement(receipts: Command, ctx: CliContext) {
  withOperator(
    withJson(
      receipts
        .command('statement')
        .description(
          "Issue a financial year's end-of-year statements now (those missing), or one donor's (sent again if it exists)",
        )
        .requiredOption('--year <year>', 'the financial year, e.g. 2026-27')
        .option('--email <address>', "only this donor's statement"),
    ),
  ).action((options: { year: string; email?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const outcome = await statementsOnDemand(ops, {
        ...options,
        policy: receiptPolicy(config),
        production: config.APP_ENV === 'production',
      });
      out.emit(
        outcome,
        () =>
          `${outcome.issued} statement(s) issued, ${outcome.resent} sent again, for ${options.year}` +
          ' (queued in the mail outbox).',
      );
    }),
  );
}
