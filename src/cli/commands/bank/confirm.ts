import type { Command } from 'commander';
import { confirmSuggestion } from '../../../services/bank-statements/decisions.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson, withOperator } from '../../options.js';
import { matchingSettings } from './shared.js';

/** bank confirm <suggestion> */
export function registerBankConfirm(bank: Command, ctx: CliContext) {
  withOperator(
    withJson(
      bank
        .command('confirm')
        .description('Confirm a suggestion: its lines paid its entries, whose money is then received (audited)')
        .argument('<suggestion>', 'the suggestion’s number (see "bank suggestions")', wholeNumber(1)),
    ),
  ).action((suggestionId: number, _options: object, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const match = await confirmSuggestion(ops, matchingSettings(config), suggestionId);
      out.emit(
        match,
        () =>
          `Suggestion ${suggestionId} confirmed as match ${match.matchId}: line(s) ${match.lineIds.join(', ')} paid ` +
          `${match.entries.map((e) => `${e.batchId} #${e.position}`).join(', ')}; their partners are told.`,
      );
    }),
  );
}
