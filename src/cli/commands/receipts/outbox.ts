import type { Command } from 'commander';
import { mailOutbox, SENT_COUNT_DAYS } from '../../../services/operators/receipt-register.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { tableOr } from '../../output.js';

/** receipts outbox */
export function registerReceiptsOutbox(receipts: Command, ctx: CliContext) {
  withJson(
    receipts
      .command('outbox')
      .description('List the mail outbox: messages not sent yet (waiting, held, failed) and why, newest first')
      .option('--status <status>', 'only this status: pending, held, sent or failed')
      .option('--limit <n>', 'list at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { status?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const { counts, messages } = await mailOutbox(ops, options);
      out.emit({ counts, messages }, () =>
        [
          tableOr(
            messages,
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
          `In all: ${['pending', 'held', 'failed'].map((s) => `${counts[s] ?? 0} ${s}`).join(', ')}; ${counts.sent ?? 0} sent in the last ${SENT_COUNT_DAYS} days.`,
        ].join('\n'),
      );
    }),
  );
}
