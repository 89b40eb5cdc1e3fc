import type { Command } from 'commander';
import { voidByOperator } from '../../../services/operators/receipts.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';
import { receiptJson } from './shared.js';

/** receipts void */
export function registerReceiptsVoid(receipts: Command, ctx: CliContext) {
  withOperator(
    withJson(
      receipts
        .command('void')
        .description('Void a receipt in force and tell its donor; nothing is issued in its place (audited)')
        .argument('<number>', 'e.g. 2026-27-000123')
        .requiredOption('--reason <text>', 'why, kept on the register and in the audit log'),
    ),
  ).action((number: string, options: { reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const receipt = await voidByOperator(ops, number, options.reason);
      out.emit(receiptJson(receipt), () => `Receipt ${receipt.number} is void; its donor is told.`);
    }),
  );
}
