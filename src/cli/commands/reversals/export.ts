import { Option, type Command } from 'commander';
import { listOwedBack, owedBackCsv } from '../../../services/operators/owed-back.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { reversalJson } from './shared.js';

/** Every reversal owed back goes in the file: it is what finance pays. */
const EXPORT_LIMIT = 1_000_000;

/** reversals export --owed: CSV on stdout, or with --json the same reversals as a JSON array. */
export function registerReversalsExport(reversals: Command, ctx: CliContext) {
  withJson(
    reversals
      .command('export')
      .description('Write the reversals owed back (not yet repaid) as CSV on stdout, oldest first')
      .addOption(new Option('--owed', 'what to export: the reversals owed back, not yet repaid').makeOptionMandatory())
      .option('--partner <partner>', 'only this partner (name or id)'),
  ).action((options: { partner?: string; json?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, io, out }) => {
      const owed = await listOwedBack(ops, { partner: options.partner, limit: EXPORT_LIMIT });
      if (options.json) io.stdout(`${JSON.stringify(owed.reversals.map(reversalJson), null, 2)}\n`);
      else io.stdout(owedBackCsv(owed));
      if (owed.count > owed.reversals.length)
        out.warn(`Only the oldest ${owed.reversals.length} of ${owed.count} reversals owed back were written.`);
    }),
  );
}
