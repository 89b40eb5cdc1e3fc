import type { Command } from 'commander';
import { listWebhookDeliveries } from '../../../services/webhooks/operations.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { fields, tableOr } from '../../output.js';

/** webhooks deliveries */
export function registerWebhooksDeliveries(webhooks: Command, ctx: CliContext) {
  withJson(
    webhooks
      .command('deliveries')
      .description('Deliveries of an endpoint (or of an event), newest first, with every attempt')
      .argument('[endpointId]')
      .option('--event <eventId>', 'only deliveries of this event')
      .option('--limit <n>', 'at most this many deliveries', wholeNumber(1, 10_000), 50),
  ).action((endpoint: string | undefined, options: { event?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listWebhookDeliveries(ops, { endpoint, ...options });
      out.emit(rows, () =>
        rows.length === 0
          ? 'No deliveries.'
          : rows
              .map((d) =>
                [
                  fields([
                    ['Delivery', d.id],
                    ['Event', `${d.eventId} (${d.eventType})`],
                    ['Status', d.failureReason ? `${d.status}: ${d.failureReason}` : d.status],
                    ['Next attempt', d.nextAttemptAt ?? '—'],
                  ]),
                  tableOr(
                    d.attemptLog,
                    [
                      { header: '#', value: (a) => a.attempt },
                      { header: 'At', value: (a) => a.attemptedAt },
                      { header: 'Status', value: (a) => a.responseStatus ?? a.error ?? '' },
                      { header: 'ms', value: (a) => a.latencyMs },
                      { header: 'Answer', value: (a) => (a.responseSnippet ?? '').slice(0, 60) },
                    ],
                    '(not attempted yet)',
                  ),
                ].join('\n'),
              )
              .join('\n\n'),
      );
    }),
  );
}
