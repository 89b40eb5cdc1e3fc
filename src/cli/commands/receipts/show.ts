import type { Command } from 'commander';
import { showReceipt } from '../../../services/operators/receipts.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { receiptJson, receiptText } from './shared.js';

/** receipts show */
export function registerReceiptsShow(receipts: Command, ctx: CliContext) {
  withJson(
    receipts
      .command('show')
      .description('Show one receipt of the register and the messages about its donation (audited)')
      .argument('<number>', 'e.g. 2026-27-000123'),
  ).action((number: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await showReceipt(ops, number);
      out.emit({ ...detail, receipt: receiptJson(detail.receipt) }, () => receiptText(detail));
    }),
  );
}
