import type { Command } from 'commander';
import { bankDetailsSettings } from '../../../services/grants/bank-details/settings.js';
import { listPendingChanges } from '../../../services/grants/bank-details/show.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson, withOperator } from '../../options.js';
import { tableOr } from '../../output.js';
import { detailsJson, pendingColumns } from './bank-output.js';

/** grants bank-pending [--unmask] [--limit n] */
export function registerGrantsBankPending(grants: Command, ctx: CliContext) {
  withOperator(
    withJson(
      grants
        .command('bank-pending')
        .description('Pending bank changes waiting for a second operator, oldest first')
        .option('--unmask', 'show whole account numbers (audited as club.bank_details_view)')
        .option('--limit <n>', 'at most this many', wholeNumber(1, 10_000), 500),
    ),
  ).action((options: { unmask?: boolean; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const changes = await listPendingChanges(ops, bankDetailsSettings(config), {
        unmask: Boolean(options.unmask),
        via: 'cli',
        limit: options.limit,
      });
      out.emit(
        changes.map((c) => ({ ...c, pending: detailsJson(c.pending), current: c.current && detailsJson(c.current) })),
        () => tableOr(changes, pendingColumns, 'No bank change is waiting for verification.'),
      );
    }),
  );
}
