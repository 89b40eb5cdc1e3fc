import type { Command } from 'commander';
import { bankLines } from '../../../services/bank-statements/listings.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { moreAfter, tableOr } from '../../output.js';
import { lineColumns, matchingSettings } from './shared.js';

/** bank lines [--unmatched] */
export function registerBankLines(bank: Command, ctx: CliContext) {
  withJson(
    bank
      .command('lines')
      .description('List bank lines, newest first; --unmatched: credit lines that pay nothing, oldest first, with age')
      .option('--unmatched', 'only credit lines not matched to any entry')
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 100_000), 200)
      .option('--after <line>', 'the page after this line: the last line id of the page before', wholeNumber(1)),
  ).action((options: { unmatched?: boolean; limit: number; after?: number }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const unmatched = Boolean(options.unmatched);
      const lines = await bankLines(ops, matchingSettings(config), { ...options, unmatched });
      out.emit({ lines }, () =>
        moreAfter(
          tableOr(lines, lineColumns, unmatched ? 'Every credit line is matched.' : 'No bank line was imported yet.'),
          lines.length === options.limit ? lines.at(-1)!.id : null,
        ),
      );
    }),
  );
}
