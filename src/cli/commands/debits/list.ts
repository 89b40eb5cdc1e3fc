import { Option, type Command } from 'commander';
import { DEBIT_VIEWS, listDebits, type DebitView } from '../../../services/operators/recurring-debits.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { debitColumns, debitJson } from './shared.js';

/** debits list */
export function registerDebitsList(debits: Command, ctx: CliContext) {
  withJson(
    debits
      .command('list')
      .description('List debits of every partner in one view (default: failed)')
      .addOption(
        new Option(
          '--view <view>',
          'upcoming (scheduled from today on), failed (newest first), disputed, processing (with the bank)',
        )
          .choices(DEBIT_VIEWS)
          .default('failed'),
      )
      .option('--partner <partner>', 'only this partner (name or id)')
      .option('--limit <n>', 'at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { view: DebitView; partner?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const rows = await listDebits(ops, options, config.FOUNDATION_TIME_ZONE);
      out.emit(rows.map(debitJson), () => tableOr(rows, debitColumns, `No ${options.view} debits.`));
    }),
  );
}
