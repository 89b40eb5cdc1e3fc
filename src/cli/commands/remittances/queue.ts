import type { Command } from 'commander';
import { listRemittanceBatches, queueSummary } from '../../../services/reconciliation/operations.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';
import { batchColumns } from './shared.js';

/** remittances queue */
export function registerRemittancesQueue(remittances: Command, ctx: CliContext) {
  withJson(
    remittances.command('queue').description('Reconciliation jobs by state, and batches that ran out of retries'),
  ).action((_options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const queues = await queueSummary(ops);
      const deadLettered = await listRemittanceBatches(ops, { deadLettered: true, range: {}, limit: 1000 });
      out.emit({ queues, deadLetteredBatches: deadLettered.map((b) => b.batchId) }, () =>
        [
          tableOr(
            Object.entries(queues),
            [
              { header: 'Queue', value: ([name]) => name },
              ...['created', 'retry', 'active', 'completed', 'failed'].map((state) => ({
                header: state,
                value: ([, counts]: [string, Record<string, number>]) => counts[state] ?? 0,
              })),
            ],
            '',
          ),
          deadLettered.length === 0
            ? 'No batch is dead-lettered.'
            : `Dead-lettered batches (retry with "remittances retry <batchId>"):\n${tableOr(deadLettered, batchColumns, '')}`,
        ].join('\n'),
      );
    }),
  );
}
