import type { Command } from 'commander';
import { correctDonor } from '../../../services/operators/receipt-correction.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { receiptJson } from './shared.js';

interface CorrectOptions {
  firstName: string;
  lastName: string;
  businessName?: string;
  email: string;
  reason: string;
}

/** receipts correct */
export function registerReceiptsCorrect(receipts: Command, ctx: CliContext) {
  withOperator(
    withJson(
      receipts
        .command('correct')
        .description(
          'Correct the donor a receipt names: it is voided and another issued in its place, sent to the corrected ' +
            'address (audited)',
        )
        .argument('<number>', 'the receipt in force, e.g. 2026-27-000123')
        .requiredOption('--first-name <name>', "the donor's first name")
        .requiredOption('--last-name <name>', "the donor's last name")
        .option('--business-name <name>', 'the business the receipt is made out to, if any')
        .requiredOption('--email <address>', 'where the receipt goes')
        .requiredOption('--reason <text>', 'why, kept with the correction and in the audit log'),
    ),
  ).action((number: string, options: CorrectOptions, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const receipt = await correctDonor(ops, number, options);
      out.emit(
        receiptJson(receipt),
        () => `Receipt ${number} is void; receipt ${receipt.number} replaces it and is queued to the donor.`,
      );
    }),
  );
}
