import type { Command } from 'commander';
import { rejectSuggestion } from '../../../services/bank-statements/decisions.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson, withOperator } from '../../options.js';

/** bank reject <suggestion> */
export function registerBankReject(bank: Command, ctx: CliContext) {
  withOperator(
    withJson(
      bank
        .command('reject')
        .description('Reject a suggestion: the same lines and entries are never suggested together again (audited)')
        .argument('<suggestion>', 'the suggestion’s number (see "bank suggestions")', wholeNumber(1))
        .option('--reason <text>', 'why, for the audit log'),
    ),
  ).action((suggestionId: number, options: { reason?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rejected = await rejectSuggestion(ops, suggestionId, options.reason);
      out.emit(rejected, () => `Suggestion ${suggestionId} rejected.`);
    }),
  );
}
