import type { Command } from 'commander';
import { matchAgain } from '../../../services/bank-statements/decisions.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { matchingSettings, runText } from './shared.js';

/** bank match */
export function registerBankMatch(bank: Command, ctx: CliContext) {
  withOperator(
    withJson(
      bank
        .command('match')
        .description('Match every unmatched line again (after remittances arrived) and refresh the suggestions'),
    ),
  ).action((_options: object, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const run = await matchAgain(ops, matchingSettings(config));
      out.emit(run, () => runText(run));
    }),
  );
}
