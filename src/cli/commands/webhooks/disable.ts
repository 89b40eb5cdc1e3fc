import type { Command } from 'commander';
import { disableWebhookEndpoint } from '../../../services/webhooks/operations.js';
import type { CliContext } from '../../context.js';
import { withJson, withOperator } from '../../options.js';

/** webhooks disable */
export function registerWebhooksDisable(webhooks: Command, ctx: CliContext) {
  withOperator(
    withJson(
      webhooks
        .command('disable')
        .description('Stop sending to an endpoint; the partner sees the reason')
        .argument('<endpointId>')
        .requiredOption('--reason <text>', 'why, in words the partner will read'),
    ),
  ).action((id: string, options: { reason: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const endpoint = await disableWebhookEndpoint(ops, id, options.reason);
      out.emit(endpoint, () => `Endpoint ${id} disabled; pending deliveries to it stopped.`);
    }),
  );
}
