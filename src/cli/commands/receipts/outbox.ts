import type { Command } from 'commander';
import { mailOutbox } from '../../../services/operators/receipt-register.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withAfter, withJson } from '../../options.js';
import { pageOr } from '../../output.js';

/** receipts outbox */
export function registerReceiptsOutbox(receipts: Command, ctx: CliContext) {
  withJson(
    withAfter(
      receipts
        .command('outbox')
        .description('List the mail outbox: messages not sent yet (waiting, held, failed) and why, newest first')
        .option('--status <status>', 'only this status: pending, held, sent or failed')
        .option('--limit <n>', 'list at most this many', wholeNumber(1, 10_000), 100),
    ),
  ).action((options: { status?: string; limit: number; after?: string }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const { counts, sentRecently, messages, next } = await mailOutbox(ops, options);
      out.emit({ counts, sentRecently, messages, next }, () =>
        [
          pageOr(
            { items: messages, next },
            [
              { header: 'Written', value: (m) => m.created_at },
              { header: 'Kind', value: (m) => m.kind },
              { header: 'About', value: (m) => m.about },
              { header: 'Status', value: (m) => m.status },
              { header: 'Attempts', value: (m) => m.attempts },
              { header: 'Why not sent', value: (m) => m.last_error },
            ],
            'No message waits.',
          ),
          `Not sent: ${['pending', 'held', 'failed'].map((s) => `${counts[s] ?? 0} ${s}`).join(', ')}; ` +
            `${sentRecently.count} sent in the last ${sentRecently.days} days.`,
        ].join('\n'),
      );
    }),
  );
}
