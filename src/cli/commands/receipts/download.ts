import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { receiptPdfOf } from '../../../services/operators/receipts.js';
import { OperatorError } from '../../../services/operators/operator-errors.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';

/** receipts download */
export function registerReceiptsDownload(receipts: Command, ctx: CliContext) {
  withJson(
    receipts
      .command('download')
      .description("Write a receipt's PDF, as its donor gets it, to a file (audited)")
      .argument('<number>', 'e.g. 2026-27-000123')
      .option('--out <file>', 'where to write it (default: receipt-<number>.pdf in the current directory)'),
  ).action((number: string, options: { out?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out, io }) => {
      const target = (name: string) => resolve(io.cwd, options.out ?? name);
      // Refused before the receipt is read (and its download audited); 'wx' still guards against a race.
      if (options.out && existsSync(target('')))
        throw new OperatorError(`Cannot write ${target('')}: the file exists.`);
      const pdf = await receiptPdfOf(ops, number);
      const path = target(pdf.filename);
      // An existing file (another receipt, a document) is never overwritten.
      await writeFile(path, pdf.content, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
        throw new OperatorError(`Cannot write ${path}: ${err.code === 'EEXIST' ? 'the file exists' : err.message}.`);
      });
      out.emit({ file: path, bytes: pdf.content.length }, () => `Wrote ${path} (${pdf.content.length} bytes).`);
    }),
  );
}
