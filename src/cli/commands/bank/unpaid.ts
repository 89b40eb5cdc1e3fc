import type { Command } from 'commander';
import { unpaidEntries } from '../../../services/bank-statements/listings.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withAfter, withJson } from '../../options.js';
import { pageOr } from '../../output.js';
import { matchingSettings, unpaidColumns } from './shared.js';

/** bank unpaid */
export function registerBankUnpaid(bank: Command, ctx: CliContext) {
  withJson(
    withAfter(
      bank
        .command('unpaid')
        .description('List remittance entries whose money no bank line was matched to, oldest batch first, with age')
        .option('--limit <n>', 'list at most this many', wholeNumber(1, 100_000), 200),
    ),
  ).action((options: { limit: number; after?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const page = await unpaidEntries(ops, matchingSettings(config), options);
      out.emit({ entries: page.items, next: page.next }, () =>
        pageOr(page, unpaidColumns, 'The money of every matched remittance entry was received.'),
      );
    }),
  );
}
