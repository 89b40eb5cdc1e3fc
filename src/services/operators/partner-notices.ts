import { noticesOf } from '../../infrastructure/repositories/partner-notices.js';
import type { OperatorContext } from './context.js';
import { InvalidInputError } from './operator-errors.js';
import { requirePartner } from './partners.js';

export interface NoticeMessageView {
  recipient: string;
  /** pending, held, sent or failed (the mail outbox's status). */
  status: string;
  deliveredTo: string | null;
  sentAt: Date | null;
  /** Why it was not delivered (yet). */
  lastError: string | null;
}

export interface NoticeView {
  id: string;
  kind: string;
  subject: string;
  roles: string[];
  createdAt: Date;
  /** One per contact it went to; none when the partner had no contact of its roles. */
  messages: NoticeMessageView[];
}

/** What a partner was told, newest first: each notice and, per contact, whether it was delivered or why not. */
export async function listNotices(ctx: OperatorContext, partnerRef: string, limit = 50): Promise<NoticeView[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new InvalidInputError('--limit must be a whole number from 1 to 1000.');
  const partner = await requirePartner(ctx, partnerRef);
  const { notices, messages } = await noticesOf(ctx.db, partner.id, limit);
  return notices.map((n) => ({
    id: n.id,
    kind: n.kind,
    subject: n.subject,
    roles: n.roles,
    createdAt: new Date(n.created_at),
    messages: messages
      .filter((m) => m.notice_id === n.id)
      .map((m) => ({
        recipient: m.recipient,
        status: m.status,
        deliveredTo: m.delivered_to,
        sentAt: m.sent_at ? new Date(m.sent_at) : null,
        lastError: m.last_error,
      })),
  }));
}

/** One line per message of a notice, for people: to whom, and delivered or why not. */
export function deliveryLines(notice: NoticeView): string[] {
  if (notice.messages.length === 0) return [`nobody: no ${notice.roles.join(' or ')} contact`];
  return notice.messages.map((m) => {
    if (m.status === 'sent') {
      const via = m.deliveredTo && m.deliveredTo !== m.recipient ? ` (delivered to ${m.deliveredTo})` : '';
      return `${m.recipient}: sent ${m.sentAt?.toISOString() ?? ''}${via}`;
    }
    return `${m.recipient}: ${m.status}${m.lastError ? ` (${m.lastError})` : ''}`;
  });
}
