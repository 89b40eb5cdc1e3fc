import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailAttachmentRef } from '../../infrastructure/db/schema-receipts.js';
import { receiptById } from '../../infrastructure/repositories/receipts.js';
import { statementById } from '../../infrastructure/repositories/receipt-statements.js';
import type { MailAttachment, MailContent, RenderedMail } from '../mail/outbox.js';
import { receiptFacts } from './facts.js';
import { receiptPdf, statementPdf } from './pdf.js';
import { receiptMail, statementMail } from './receipt-mail.js';
import { statementFacts } from './statement-facts.js';

/** What receipts' messages say and attach, for the mail delivery worker (services/mail). */
export const receiptMailContent: MailContent = {
  async render(db, message): Promise<RenderedMail> {
    const ref = message.attachments[0];
    if (message.kind === 'receipt' && ref?.type === 'receipt')
      return receiptMail(await receiptFacts(db, await receipt(db, ref)));
    if (message.kind === 'receipt-statement' && ref?.type === 'statement')
      return statementMail(await statementFacts(db, await statement(db, ref)));
    throw new Error(`no content for a ${message.kind} message`);
  },
  attachment: (db, ref) => attachmentOf(db, ref),
};

/** The PDF a reference names, rendered now from its register row. */
export async function attachmentOf(db: Kysely<DB>, ref: MailAttachmentRef): Promise<MailAttachment> {
  if (ref.type === 'receipt') {
    const row = await receipt(db, ref);
    return {
      filename: `receipt-${row.number}.pdf`,
      contentType: 'application/pdf',
      content: await receiptPdf(await receiptFacts(db, row)),
    };
  }
  const row = await statement(db, ref);
  return {
    filename: `statement-${row.financial_year}.pdf`,
    contentType: 'application/pdf',
    content: await statementPdf(await statementFacts(db, row)),
  };
}

async function receipt(db: Kysely<DB>, ref: MailAttachmentRef) {
  const row = await receiptById(db, ref.id);
  if (!row) throw new Error(`receipt ${ref.id} does not exist`);
  return row;
}

async function statement(db: Kysely<DB>, ref: MailAttachmentRef) {
  const row = await statementById(db, ref.id);
  if (!row) throw new Error(`statement ${ref.id} does not exist`);
  return row;
}
