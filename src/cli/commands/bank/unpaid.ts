import type { Command } from 'commander';
import { unpaidEntries } from '../../../services/bank-statements/listings.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { matchingSettings, unpaidColumns } from './shared.js';

/** bank unpaid */
export function registerBankUnpaid(bank: Command, ctx: CliContext) {
  withJson(
    bank
      .command('unpaid')
      .description('List remittance entries whose money no bank line was matched to, oldest batch first, with age')
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 100_000), 200),
  ).action((options: { limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const entries = await unpaidEntries(ops, matchingSettings(config), options.limit);
      out.emit({ entries }, () =>
        tableOr(entries, unpaidColumns, 'The money of every matched remittance entry was received.'),
      );
    }),
  );
}
