import type { Command } from 'commander';
import { listOwedBack } from '../../../services/operators/owed-back.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { formatAud, tableOr } from '../../output.js';
import { owedColumns, reversalJson } from './shared.js';

/** reversals owed */
export function registerReversalsOwed(reversals: Command, ctx: CliContext) {
  withJson(
    reversals
      .command('owed')
      .description('List reversals made after settlement and not yet repaid, oldest first, with totals')
      .option('--partner <partner>', 'only this partner (name or id)')
      .option('--limit <n>', 'list at most this many (the totals cover them all)', wholeNumber(1, 100_000), 1000),
  ).action((options: { partner?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const owed = await listOwedBack(ops, options);
      const totals = owed.totals.map((t) => ({ ...t, totalAud: formatAud(t.totalCents) }));
      out.emit(
        {
          reversals: owed.reversals.map(reversalJson),
          totals,
          count: owed.count,
          totalCents: owed.totalCents,
          totalAud: formatAud(owed.totalCents),
        },
        () =>
          [
            tableOr(owed.reversals, owedColumns, 'Nothing is owed back.'),
            ...totals.map((t) => `${t.partnerName} (${t.environment}): ${t.count} reversal(s), AUD ${t.totalAud}`),
            `Owed back in all: ${owed.count} reversal(s), AUD ${formatAud(owed.totalCents)}` +
              (owed.count > owed.reversals.length
                ? ` (oldest ${owed.reversals.length} listed; raise --limit to see more)`
                : ''),
          ].join('\n'),
      );
    }),
  );
}
