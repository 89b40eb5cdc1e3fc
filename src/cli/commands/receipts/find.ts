import type { Command } from 'commander';
import { findReceipts } from '../../../services/operators/receipts.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { receiptColumns, receiptJson } from './shared.js';

/** receipts find */
export function registerReceiptsFind(receipts: Command, ctx: CliContext) {
  withJson(
    receipts
      .command('find')
      .description('Find receipts by number, donation or donor e-mail (one of them); the search is audited')
      .option('--number <number>', 'a receipt number, e.g. 2026-27-000123')
      .option('--donation <referenceId>', "a donation's reference id (DON-…): all its receipts, void ones too")
      .option('--email <address>', "a donor's e-mail address (any case): newest first")
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { number?: string; donation?: string; email?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const found = await findReceipts(ops, options);
      out.emit(found.map(receiptJson), () => tableOr(found, receiptColumns, 'No receipt found.'));
    }),
  );
}
