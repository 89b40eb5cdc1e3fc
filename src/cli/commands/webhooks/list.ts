import { Option, type Command } from 'commander';
import { listWebhookEndpoints } from '../../../services/webhooks/operations.js';
import type { CliContext } from '../../context.js';
import { withJson } from '../../options.js';
import { tableOr } from '../../output.js';

/** webhooks list */
export function registerWebhooksList(webhooks: Command, ctx: CliContext) {
  withJson(
    webhooks
      .command('list')
      .description('List endpoints of every partner, with status and why any is disabled')
      .option('--partner <partner>', 'only this partner (name or id)')
      .addOption(new Option('--status <status>', 'only endpoints with this status').choices(['enabled', 'disabled']))
      .option('--deleted', 'include endpoints their partner deleted'),
  ).action((options: { partner?: string; status?: string; deleted?: boolean }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listWebhookEndpoints(ops, options);
      out.emit(rows, () =>
        tableOr(
          rows,
          [
            { header: 'Endpoint', value: (e) => e.id },
            { header: 'Partner', value: (e) => `${e.partnerName} (${e.environment})` },
            { header: 'URL', value: (e) => e.url },
            { header: 'Events', value: (e) => e.events.join(', ') },
            { header: 'Status', value: (e) => (e.deletedAt ? 'deleted' : e.status) },
            { header: 'Failing since', value: (e) => e.failingSince ?? '' },
            { header: 'Disabled because', value: (e) => e.disabledReason ?? '' },
          ],
          'No webhook endpoints.',
        ),
      );
    }),
  );
}
