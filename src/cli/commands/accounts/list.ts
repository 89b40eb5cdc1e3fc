import type { Command } from 'commander';
import { listAccounts, type AccountSummary } from '../../../services/operators/accounts.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';

/** accounts list */
export function registerAccountsList(accounts: Command, ctx: CliContext) {
  withJson(
    accounts
      .command('list')
      .description('List accounts with the status of each product')
      .option('--search <text>', 'name, member number or CRM id containing this text')
      .option('--channel <name>', 'only accounts with a product for this channel')
      .option('--limit <n>', 'at most this many accounts', wholeNumber(1, 100_000), 200),
  ).action((options: { search?: string; channel?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listAccounts(ops, options);
      out.emit(rows, () =>
        tableOr(
          rows,
          [
            { header: 'Member', value: (a: AccountSummary) => a.memberNumber },
            { header: 'CRM id', value: (a) => a.crmId },
            { header: 'Name', value: (a) => a.name },
            { header: 'ABN', value: (a) => a.abn },
            { header: 'Products', value: (a) => a.products.map((p) => `${p.channel}: ${p.status}`) },
          ],
          'No accounts match.',
        ),
      );
    }),
  );
}
