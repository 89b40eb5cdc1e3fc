import type { Command } from 'commander';
import { registerCsv } from '../../../services/operators/receipt-register.js';
import type { CliContext } from '../../context.js';

/** receipts export */
export function registerReceiptsExport(receipts: Command, ctx: CliContext) {
  receipts
    .command('export')
    .description("Write a financial year's register as CSV on stdout, for the auditor: every receipt, void ones too")
    .requiredOption('--year <year>', 'the financial year, e.g. 2026-27')
    .action((options: { year: string }, command: Command) =>
      ctx.run(command, async ({ ops, io, config }) => {
        const csv = await registerCsv(ops, { year: options.year, production: config.APP_ENV === 'production' });
        for await (const part of csv) io.stdout(String(part));
      }),
    );
}
