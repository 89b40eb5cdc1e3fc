import type { Command } from 'commander';
import { deliveryLines, listNotices, type NoticeView } from '../../../services/operators/partner-notices.js';
import type { CliContext } from '../../context.js';
import { wholeNumber, withJson } from '../../options.js';
import { formatTime, tableOr, type Column } from '../../output.js';

const columns: Column<NoticeView>[] = [
  { header: 'When', value: (n) => formatTime(n.createdAt) },
  { header: 'Notice', value: (n) => n.kind },
  { header: 'About', value: (n) => n.subject },
  { header: 'To', value: (n) => deliveryLines(n).join('\n') },
];

const noticeJson = (n: NoticeView) => ({
  id: n.id,
  kind: n.kind,
  subject: n.subject,
  roles: n.roles,
  createdAt: n.createdAt.toISOString(),
  messages: n.messages.map((m) => ({
    recipient: m.recipient,
    status: m.status,
    deliveredTo: m.deliveredTo,
    sentAt: m.sentAt?.toISOString() ?? null,
    lastError: m.lastError,
  })),
});

/** partners notices: what a partner's contacts were told by e-mail, and whether it reached them (docs/partners.md). */
export function registerPartnersNotices(partners: Command, ctx: CliContext) {
  withJson(
    partners
      .command('notices')
      .description('List the notices a partner’s contacts were sent: what, to whom, when, delivered or why not')
      .argument('<partner>', 'partner name or id')
      .option('--limit <n>', 'the latest n notices (1-1000)', wholeNumber(1, 1000), 50),
  ).action((ref: string, options: { limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const notices = await listNotices(ops, ref, options.limit);
      out.emit(notices.map(noticeJson), () => tableOr(notices, columns, 'No notice sent to this partner yet.'));
    }),
  );
}
