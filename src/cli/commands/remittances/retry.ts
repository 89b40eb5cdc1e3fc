import type { Command } from 'commander';
import { retryRemittanceBatch } from '../../../services/reconciliation/operations.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** remittances retry */
export function registerRemittancesRetry(remittances: Command, ctx: CliContext) {
  withOperator(
    withJson(
      remittances
        .command('retry')
        .description(
          'Reconcile a batch again that is not completed (typically dead-lettered): a new job with fresh retries',
        )
        .argument('<batchId>', 'the batch'),
    ),
  ).action((batchId: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await retryRemittanceBatch(ops, batchId);
      out.emit(
        result,
        () =>
          `Batch ${batchId} queued for reconciliation again (job ${result.jobId}). The running service picks it up within seconds.`,
      );
    }),
  );
}
