import type { Kysely } from 'kysely';
import { ApiError } from '../../api-errors.js';
import type { SandboxReceipts } from '../../contract/receipts.js';
import { formatCents } from '../../domain/money.js';
import type { Principal } from '../../domain/principal.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailMessage } from '../../infrastructure/db/schema-receipts.js';
import { messagesAbout } from '../../infrastructure/repositories/mail-outbox.js';
import { findOwnDonation } from '../../infrastructure/repositories/partner-donations.js';
import { receiptNumberOf, receiptsOfDonation } from '../../infrastructure/repositories/receipts.js';
import { attachmentOf, renderReceiptMail } from './content.js';

/**
 * GET /sandbox/receipts (docs/receipts.md, "Sandbox"): a partner's own donation's sample receipts and the messages
 * its donor would get, rendered by the code that renders them for sending: a message already rendered is shown as
 * it was (it never changes), one still waiting as it will be. Another partner's donation answers like an unknown one.
 */
export async function sandboxReceipts(
  db: Kysely<DB>,
  principal: Pick<Principal, 'partnerId' | 'environment'>,
  referenceId: string,
): Promise<SandboxReceipts> {
  const donation = await findOwnDonation(db, principal, referenceId);
  if (!donation) throw new ApiError('NOT_FOUND', `No donation with reference id ${referenceId}`);
  const rows = await receiptsOfDonation(db, referenceId, principal);
  const receipts = await Promise.all(
    rows.map(async (r) => ({
      number: r.number,
      status: r.voided_at === null ? ('in force' as const) : ('void' as const),
      amount: formatCents(Number(r.amount_cents)),
      giftDate: r.gift_date,
      issuedAt: new Date(r.issued_at).toISOString(),
      issueReason: r.issue_reason,
      replaces: await receiptNumberOf(db, r.replaces_id),
      voidedAt: r.voided_at === null ? null : new Date(r.voided_at).toISOString(),
    })),
  );
  const messages = (await messagesAbout(db, `donation:${donation.reference_id}`)).filter(
    (m) => m.kind === 'receipt' || m.kind === 'receipt-void',
  );
  return {
    donationReferenceId: donation.reference_id,
    receipts,
    messages: await Promise.all(messages.map((m) => asSent(db, m))),
  };
}

async function asSent(db: Kysely<DB>, message: MailMessage): Promise<SandboxReceipts['messages'][number]> {
  const body =
    message.subject === null
      ? await renderReceiptMail(db, message)
      : { subject: message.subject, text: message.text_body ?? '', html: message.html_body };
  const attachments = [];
  for (const ref of message.attachments) {
    const file = await attachmentOf(db, ref);
    attachments.push({
      filename: file.filename,
      contentType: file.contentType,
      contentBase64: file.content.toString('base64'),
    });
  }
  return {
    kind: message.kind as 'receipt' | 'receipt-void',
    status: message.status,
    to: message.recipient,
    subject: body.subject,
    text: body.text,
    html: body.html,
    attachments,
  };
}
