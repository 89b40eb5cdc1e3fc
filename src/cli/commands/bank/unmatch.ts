import type { Command } from 'commander';
import { unmatch } from '../../../services/bank-statements/decisions.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson, withOperator } from '../../options.js';
import { runText, matchingSettings } from './shared.js';

/** bank unmatch <match> --reason */
export function registerBankUnmatch(bank: Command, ctx: CliContext) {
  withOperator(
    withJson(
      bank
        .command('unmatch')
        .description('Undo a match: its entries’ money is no longer received, its partners are told (audited)')
        .argument('<match>', 'the match’s number (see "bank matches" or "bank lines")', wholeNumber(1))
        .requiredOption('--reason <text>', 'why the match is wrong, for the audit log'),
    ),
  ).action((matchId: number, options: { reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const undone = await unmatch(ops, matchingSettings(config), matchId, options.reason);
      out.emit(undone, () => `Match ${matchId} undone. ${runText(undone.run)}`);
    }),
  );
}
