import type { Command } from 'commander';
import { listRemittanceBatches } from '../../../services/reconciliation/operations.js';
import { parseTimeRange } from '../../../services/operators/time-range.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { statusOption, fromOption, toOption, batchColumns, batchJson } from './shared.js';

/** remittances list */
export function registerRemittancesList(remittances: Command, ctx: CliContext) {
  withJson(
    remittances
      .command('list')
      .description('List batches, newest first, with their status and counts')
      .option('--partner <partner>', 'only this partner (name or id)')
      .addOption(statusOption())
      .option(...fromOption)
      .option(...toOption)
      .option('--dead-lettered', 'only batches whose reconciliation ran out of retries (see "remittances retry")')
      .option('--limit <n>', 'at most this many', wholeNumber(1, 10_000), 100),
  ).action(
    (
      options: { partner?: string; status?: string; from?: string; to?: string; deadLettered?: boolean; limit: number },
      command: Command,
    ) =>
      ctx.run(command, async ({ ops, out }) => {
        const rows = await listRemittanceBatches(ops, { ...options, range: parseTimeRange(options.from, options.to) });
        out.emit(rows.map(batchJson), () => tableOr(rows, batchColumns, 'No remittance batches match.'));
      }),
  );
}
