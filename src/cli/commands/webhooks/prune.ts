import type { Command } from 'commander';
import { pruneWebhookEvents } from '../../../services/webhooks/operations.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';

/** webhooks prune */
export function registerWebhooksPrune(webhooks: Command, ctx: CliContext) {
  withJson(
    webhooks
      .command('prune')
      .description('Delete events (and their deliveries) past EVENT_RETENTION_DAYS now; the service does it hourly'),
  ).action((_options, command: Command) =>
    ctx.run(command, async ({ ops, out, config }) => {
      const result = await pruneWebhookEvents(ops, config.EVENT_RETENTION_DAYS);
      out.emit(result, () => `${result.pruned} event(s) pruned.`);
    }),
  );
}
