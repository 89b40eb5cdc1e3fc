import type { Command } from 'commander';
import { replayWebhookEvent } from '../../../services/webhooks/operations.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** webhooks replay */
export function registerWebhooksReplay(webhooks: Command, ctx: CliContext) {
  withOperator(
    withJson(
      webhooks
        .command('replay')
        .description('Send an event again (same webhook-id) to its endpoints, or to one')
        .argument('<eventId>')
        .option('--endpoint <endpointId>', 'only to this endpoint'),
    ),
  ).action((eventId: string, options: { endpoint?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const replay = await replayWebhookEvent(ops, eventId, options);
      out.emit(replay, () => `Event ${eventId} queued for ${replay.deliveries.length} endpoint(s).`);
    }),
  );
}
