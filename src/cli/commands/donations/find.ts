import type { Command } from 'commander';
import { findDonations } from '../../../services/operators/donations.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { donationColumns, donationJson } from './shared.js';

/** donations find */
export function registerDonationsFind(donations: Command, ctx: CliContext) {
  withJson(
    donations
      .command('find')
      .description("Find donations by the partner's transaction id or by the donor's email")
      .option('--transaction-id <id>', "the partner's transaction.id")
      .option('--email <email>', "the donor's email (any case)")
      .option('--partner <partner>', 'only this partner (name or id)')
      .option('--limit <n>', 'at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { transactionId?: string; email?: string; partner?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await findDonations(ops, {
        transactionId: options.transactionId,
        donorEmail: options.email,
        partner: options.partner,
        limit: options.limit,
      });
      out.emit(rows.map(donationJson), () => tableOr(rows, donationColumns, 'No donations match.'));
    }),
  );
}
