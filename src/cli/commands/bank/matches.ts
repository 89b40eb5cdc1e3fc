import type { Command } from 'commander';
import { bankMatches } from '../../../services/bank-statements/listings.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { moreAfter, tableOr } from '../../output.js';
import { matchColumns } from './shared.js';

/** bank matches */
export function registerBankMatches(bank: Command, ctx: CliContext) {
  withJson(
    bank
      .command('matches')
      .description('List matches of lines to entries, newest first, undone ones included')
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 10_000), 100)
      .option('--after <match>', 'the page after this match: the last match id of the page before', wholeNumber(1)),
  ).action((options: { limit: number; after?: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const matches = await bankMatches(ops, options.limit, options.after);
      out.emit({ matches }, () =>
        moreAfter(
          tableOr(matches, matchColumns, 'No match yet.'),
          matches.length === options.limit ? matches.at(-1)!.id : null,
        ),
      );
    }),
  );
}
