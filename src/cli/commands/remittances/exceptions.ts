import type { Command } from 'commander';
import { listRemittanceEntries } from '../../../services/reconciliation/operations.js';
import { parseTimeRange } from '../../../services/operators/time-range.js';
import type { CliContext } from '../../context.js';
import { exportedEntry } from '../../../services/reconciliation/entry-export.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { outcomeOption, fromOption, toOption, exceptionColumns } from './shared.js';

/** remittances exceptions */
export function registerRemittancesExceptions(remittances: Command, ctx: CliContext) {
  withJson(
    remittances
      .command('exceptions')
      .description('List entries whose outcome is not matched, across batches, newest batch first')
      .option('--partner <partner>', 'only this partner (name or id)')
      .addOption(outcomeOption())
      .option(...fromOption)
      .option(...toOption)
      .option('--limit <n>', 'at most this many', wholeNumber(1, 100_000), 200),
  ).action(
    (options: { partner?: string; outcome?: string; from?: string; to?: string; limit: number }, command: Command) =>
      ctx.run(command, async ({ ops, out }) => {
        const rows = await listRemittanceEntries(ops, {
          ...options,
          exceptionsOnly: true,
          range: parseTimeRange(options.from, options.to),
        });
        out.emit(rows.map(exportedEntry), () => tableOr(rows, exceptionColumns, 'No exceptions match.'));
      }),
  );
}
