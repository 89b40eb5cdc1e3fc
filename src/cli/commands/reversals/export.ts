import { Option, type Command } from 'commander';
import { listOwedBack, owedBackCsv } from '../../../services/operators/owed-back.js';
import type { CliContext } from '../../context.js';

/** Every reversal owed back goes in the file: it is what finance pays. */
const EXPORT_LIMIT = 1_000_000;

/** reversals export --owed */
export function registerReversalsExport(reversals: Command, ctx: CliContext) {
  reversals
    .command('export')
    .description('Write the reversals owed back (not yet repaid) as CSV on stdout, oldest first')
    .addOption(new Option('--owed', 'what to export: the reversals owed back, not yet repaid').makeOptionMandatory())
    .option('--partner <partner>', 'only this partner (name or id)')
    .action((options: { partner?: string }, command: Command) =>
      ctx.run(command, async ({ ops, io, out }) => {
        const owed = await listOwedBack(ops, { partner: options.partner, limit: EXPORT_LIMIT });
        io.stdout(owedBackCsv(owed));
        if (owed.count > owed.reversals.length)
          out.warn(`Only the oldest ${owed.reversals.length} of ${owed.count} reversals owed back were written.`);
      }),
    );
}
