import type { Kysely } from 'kysely';
import type { ReceiptFacts } from '../../domain/receipt.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailAttachmentRef, MailMessage, ReceiptRow } from '../../infrastructure/db/schema-receipts.js';
import { receiptById } from '../../infrastructure/repositories/receipts.js';
import { statementById } from '../../infrastructure/repositories/receipt-statements.js';
import type { ComposedMail, MailAttachment, MailContent, RenderedMail } from '../mail/outbox.js';
import { receiptFacts, receiptFactsByIds } from './facts.js';
import { receiptPdf, statementPdf } from './pdf-thread.js';
import { receiptMail, statementMail } from './receipt-mail.js';
import { statementFacts } from './statement-facts.js';

/**
 * What receipts' messages say and attach, for the mail delivery worker (services/mail): the receipts of a batch
 * are read together, and each one's facts serve both its e-mail and its PDF.
 */
export const receiptMailContent: MailContent = {
  async compose(db, messages, options = {}) {
    const receiptIds = messages.flatMap((m) => m.attachments.filter((a) => a.type === 'receipt').map((a) => a.id));
    const facts = await receiptFactsByIds(db, receiptIds);
    const composed = new Map<string, ComposedMail | Error>();
    // All at once: the PDFs queue for their thread (pdf-thread.ts), which then never waits for the next one.
    await Promise.all(
      messages.map(async (message) => {
        try {
          composed.set(message.id, await composeOne(db, message, facts, options.bodiesOnly ?? false));
        } catch (err) {
          composed.set(message.id, err as Error);
        }
      }),
    );
    return composed;
  },
};

async function composeOne(
  db: Kysely<DB>,
  message: MailMessage,
  facts: Map<string, ReceiptFacts>,
  bodiesOnly: boolean,
): Promise<ComposedMail> {
  const factsOf = (ref: MailAttachmentRef) => {
    const found = facts.get(ref.id);
    if (!found) throw new Error(`receipt ${ref.id} does not exist`);
    return found;
  };
  const ref = message.attachments[0];
  const rendered =
    message.subject !== null
      ? null
      : message.kind === 'receipt' && ref?.type === 'receipt'
        ? receiptMail(factsOf(ref))
        : await renderReceiptMail(db, message);
  const attachments: MailAttachment[] = [];
  if (!bodiesOnly)
    for (const each of message.attachments)
      attachments.push(each.type === 'receipt' ? await receiptAttachment(factsOf(each)) : await attachmentOf(db, each));
  return { rendered, attachments };
}

/** What a receipt's message says, rendered now from its register row. */
export async function renderReceiptMail(
  db: Kysely<DB>,
  message: { kind: string; attachments: MailAttachmentRef[] },
): Promise<RenderedMail> {
  const ref = message.attachments[0];
  if (message.kind === 'receipt' && ref?.type === 'receipt')
    return receiptMail(await receiptFacts(db, await receipt(db, ref)));
  if (message.kind === 'receipt-statement' && ref?.type === 'statement')
    return statementMail(await statementFacts(db, await statement(db, ref)));
  throw new Error(`no content for a ${message.kind} message`);
}

/** The PDF a reference names, rendered now from its register row. */
export async function attachmentOf(db: Kysely<DB>, ref: MailAttachmentRef): Promise<MailAttachment> {
  if (ref.type === 'receipt') return receiptAttachment(await receiptFacts(db, await receipt(db, ref)));
  const row = await statement(db, ref);
  return {
    filename: `statement-${row.financial_year}.pdf`,
    contentType: 'application/pdf',
    content: await statementPdf(await statementFacts(db, row)),
  };
}

async function receiptAttachment(facts: ReceiptFacts): Promise<MailAttachment> {
  return { filename: `receipt-${facts.number}.pdf`, contentType: 'application/pdf', content: await receiptPdf(facts) };
}

async function receipt(db: Kysely<DB>, ref: MailAttachmentRef): Promise<ReceiptRow> {
  const row = await receiptById(db, ref.id);
  if (!row) throw new Error(`receipt ${ref.id} does not exist`);
  return row;
}

async function statement(db: Kysely<DB>, ref: MailAttachmentRef) {
  const row = await statementById(db, ref.id);
  if (!row) throw new Error(`statement ${ref.id} does not exist`);
  return row;
}
