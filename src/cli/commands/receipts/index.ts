import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerReceiptsCorrect } from './correct.js';
import { registerReceiptsDownload } from './download.js';
import { registerReceiptsExport } from './export.js';
import { registerReceiptsFind } from './find.js';
import { registerReceiptsOutbox } from './outbox.js';
import { registerReceiptsResend } from './resend.js';
import { registerReceiptsShow } from './show.js';
import { registerReceiptsStatement } from './statement.js';
import { registerReceiptsVoid } from './void.js';

/** receipts find | show | download | resend | void | correct | export | statement | outbox: the register (docs/receipts.md). */
export function registerReceipts(program: Command, ctx: CliContext) {
  const receipts = program
    .command('receipts')
    .description(
      'Donor tax receipts: find, show, download, resend, void, correct, export the register, statements, outbox',
    );

  registerReceiptsFind(receipts, ctx);
  registerReceiptsShow(receipts, ctx);
  registerReceiptsDownload(receipts, ctx);
  registerReceiptsResend(receipts, ctx);
  registerReceiptsVoid(receipts, ctx);
  registerReceiptsCorrect(receipts, ctx);
  registerReceiptsExport(receipts, ctx);
  registerReceiptsStatement(receipts, ctx);
  registerReceiptsOutbox(receipts, ctx);
}
