import type { Command } from 'commander';
import { markRepaid } from '../../../services/operators/reversals.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { formatAud } from '../../output.js';
import { reversalJson } from './shared.js';

/** reversals repaid */
export function registerReversalsRepaid(reversals: Command, ctx: CliContext) {
  withOperator(
    withJson(
      reversals
        .command('repaid')
        .description('Mark a reversal owed back as repaid: the money went back to the partner')
        .argument('<reversalId>', 'e.g. REV-… (see "reversals owed")')
        .requiredOption('--note <text>', 'how it was repaid (e.g. the bank transfer), for the audit log'),
    ),
  ).action((reversalId: string, options: { note: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const reversal = await markRepaid(ops, reversalId, options.note);
      out.emit(
        reversalJson(reversal),
        () =>
          `Reversal ${reversalId} (${formatAud(reversal.amountCents)} AUD of donation ${reversal.donationReferenceId}) is marked repaid; it is no longer owed back.`,
      );
    }),
  );
}
