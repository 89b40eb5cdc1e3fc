import type { Command } from 'commander';
import { openSuggestions } from '../../../services/bank-statements/listings.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { suggestionColumns } from './shared.js';

/** bank suggestions */
export function registerBankSuggestions(bank: Command, ctx: CliContext) {
  withJson(
    bank
      .command('suggestions')
      .description('List open suggestions of which lines paid which entries, best first, with the reasons')
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const suggestions = await openSuggestions(ops, options.limit);
      out.emit({ suggestions }, () => tableOr(suggestions, suggestionColumns, 'No open suggestion.'));
    }),
  );
}
