import { Option, type Command } from 'commander';
import { REQUESTABLE_REASONS } from '../../../domain/reversal.js';
import { reverseByOperator } from '../../../services/operators/reversals.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { formatAud } from '../../output.js';
import { reversalJson } from '../reversals/shared.js';

/** donations reverse */
export function registerDonationsReverse(donations: Command, ctx: CliContext) {
  withOperator(
    withJson(
      donations
        .command('reverse')
        .description("Reverse any partner's donation, whole or in part, for the foundation; the partner is told")
        .argument('<referenceId>', 'e.g. DON-…')
        .requiredOption('--amount <aud>', 'AUD to take back, e.g. 5.00 (never more than is left of the donation)')
        .addOption(
          new Option('--reason <reason>', 'why the money went back').choices(REQUESTABLE_REASONS).makeOptionMandatory(),
        )
        .requiredOption('--note <text>', 'what happened, for the audit log and finance (the partner is not sent it)'),
    ),
  ).action((referenceId: string, options: { amount: string; reason: string; note: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const reversal = await reverseByOperator(ops, { referenceId, ...options });
      out.emit(reversalJson(reversal), () =>
        [
          `Reversed ${formatAud(reversal.amountCents)} AUD of donation ${referenceId} (${reversal.reversalId}).`,
          reversal.owedBack
            ? 'It was settled already: the money is owed back to the partner (see "reversals owed").'
            : 'It was not settled yet: its remittance should carry the amount net of this reversal.',
          'The partner is told (donation.reversed, requested by the foundation).',
        ].join('\n'),
      );
    }),
  );
}
