import { exceptionsCsv } from '../notices/content.js';
import { EXCEPTIONS_ATTACHMENT } from '../notices/send.js';
import { receiptMailContent } from '../receipts/content.js';
import type { MailContent } from './outbox.js';

/**
 * What every message of the outbox says and attaches: receipts' content, and the partner notices' digest CSV. A
 * notice is written with its subject and text, so only receipts' messages are rendered here.
 */
export const mailContent: MailContent = {
  render: (db, message) => receiptMailContent.render(db, message),
  attachment: (db, ref) =>
    ref.type === EXCEPTIONS_ATTACHMENT ? exceptionsCsv(db, ref) : receiptMailContent.attachment(db, ref),
};
