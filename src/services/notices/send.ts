import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { NoticeDetails } from '../../infrastructure/db/schema-partner-contacts.js';
import { contactEmails } from '../../infrastructure/repositories/partner-contacts.js';
import { insertNotice } from '../../infrastructure/repositories/partner-notices.js';
import { findPartner } from '../../infrastructure/repositories/partners.js';
import { enqueueMail } from '../mail/outbox.js';
import { NOTICE_ROLES, type NoticeKind, type NoticeMail } from './messages.js';

/** The attachment of a digest: its batches' exceptions as CSV, rendered when it is sent (./content.ts). */
export const EXCEPTIONS_ATTACHMENT = 'remittance-exceptions';

export interface Notice {
  partnerId: string;
  kind: NoticeKind;
  /** What it is about, for the partner's page. */
  subject: string;
  /** Set for a notice that must go once, whoever tries to send it again. */
  onceKey?: string;
  details?: NoticeDetails;
  at: Date;
  /** What it says, given the partner's name. */
  mail: (partnerName: string) => NoticeMail;
  withExceptionsCsv?: boolean;
}

/**
 * Records a notice and writes one message per contact of its roles to the mail outbox, in the caller's transaction:
 * the notice exists if and only if the change it tells about commits. Null when its once-key was used already.
 */
export async function sendNotice(trx: Kysely<DB>, notice: Notice): Promise<{ id: string; messages: number } | null> {
  const roles = [...NOTICE_ROLES[notice.kind]];
  const id = await insertNotice(trx, {
    partnerId: notice.partnerId,
    kind: notice.kind,
    roles,
    subject: notice.subject,
    onceKey: notice.onceKey ?? null,
    ...(notice.details ? { details: notice.details } : {}),
    at: notice.at,
  });
  if (id === null) return null;
  const partner = await findPartner(trx, notice.partnerId);
  const { subject, text } = notice.mail(partner?.name ?? notice.partnerId);
  const recipients = await contactEmails(trx, notice.partnerId, roles);
  for (const recipient of recipients)
    await enqueueMail(trx, {
      kind: notice.kind,
      recipient,
      subject,
      text,
      html: null,
      about: `notice:${id}`,
      attachments: notice.withExceptionsCsv ? [{ type: EXCEPTIONS_ATTACHMENT, id }] : [],
    });
  return { id, messages: recipients.length };
}
