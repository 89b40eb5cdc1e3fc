import type { Command } from 'commander';
import { enableWebhookEndpoint } from '../../../services/webhooks/operations.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** webhooks enable */
export function registerWebhooksEnable(webhooks: Command, ctx: CliContext) {
  withOperator(
    withJson(
      webhooks
        .command('enable')
        .description('Send new events to an endpoint again (missed ones: "webhooks replay", or the event log)')
        .argument('<endpointId>'),
    ),
  ).action((id: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const endpoint = await enableWebhookEndpoint(ops, id);
      out.emit(endpoint, () => `Endpoint ${id} enabled.`);
    }),
  );
}
