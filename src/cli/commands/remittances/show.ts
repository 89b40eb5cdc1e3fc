import type { Command } from 'commander';
import { remittanceBatchDetail } from '../../../services/reconciliation/operations.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { batchJson, batchFields, entryColumns } from './shared.js';

/** remittances show */
export function registerRemittancesShow(remittances: Command, ctx: CliContext) {
  withJson(
    remittances
      .command('show')
      .description('Show one batch: status, counts, attempts, and the outcome of each entry')
      .argument('<batchId>', 'the batchId returned by POST /remittances')
      .option('--exceptions', 'list only entries whose outcome is not matched')
      .option(
        '--limit <n>',
        'list at most this many entries (JSON output lists them all)',
        wholeNumber(1, 1_000_000),
        200,
      ),
  ).action((batchId: string, options: { exceptions?: boolean; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await remittanceBatchDetail(ops, batchId, { exceptionsOnly: options.exceptions });
      const entries = detail.report.entries;
      out.emit({ ...batchJson(detail.batch), counts: detail.report.counts, jobs: detail.jobs, entries }, () =>
        [
          batchFields(detail.batch, detail.jobs),
          tableOr(entries.slice(0, options.limit), entryColumns, options.exceptions ? 'No exceptions.' : 'No entries.'),
          ...(entries.length > options.limit
            ? [
                `(first ${options.limit} of ${entries.length} entries listed; raise --limit, or use "remittances export")`,
              ]
            : []),
        ].join('\n'),
      );
    }),
  );
}
