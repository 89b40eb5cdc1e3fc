import type { Command } from 'commander';
import { registerCsv, registerJson } from '../../../services/operators/receipt-register.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';

/** receipts export: the register as CSV on stdout, or with --json as an array of the same records. */
export function registerReceiptsExport(receipts: Command, ctx: CliContext) {
  withJson(
    receipts
      .command('export')
      .description("Write a financial year's register as CSV on stdout, for the auditor: every receipt, void ones too")
      .requiredOption('--year <year>', 'the financial year, e.g. 2026-27'),
  ).action((options: { year: string; json?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, io, config }) => {
      const request = { year: options.year, production: config.APP_ENV === 'production' };
      if (options.json) return io.stdout(`${JSON.stringify(await registerJson(ops, request), null, 2)}\n`);
      for await (const part of await registerCsv(ops, request)) io.stdout(String(part));
    }),
  );
}
