import type { Command } from 'commander';
import { resendReceipt } from '../../../services/operators/receipts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { receiptJson } from './shared.js';

/** receipts resend */
export function registerReceiptsResend(receipts: Command, ctx: CliContext) {
  withOperator(
    withJson(
      receipts
        .command('resend')
        .description('Send a receipt in force to its donor again (through the mail outbox; audited)')
        .argument('<number>', 'e.g. 2026-27-000123'),
    ),
  ).action((number: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const receipt = await resendReceipt(ops, number);
      out.emit(
        receiptJson(receipt),
        () => `Receipt ${receipt.number} is queued to its donor again (see "receipts outbox").`,
      );
    }),
  );
}
