import { exceptionsCsv } from '../notices/content.js';
import { EXCEPTIONS_ATTACHMENT } from '../notices/send.js';
import { receiptMailContent } from '../receipts/content.js';
import type { ComposedMail, MailContent } from './outbox.js';

/**
 * What every message of the outbox says and attaches: receipts' content, and the partner notices' digest CSV. A
 * notice is written with its subject and text, so only its attachment is made here.
 */
export const mailContent: MailContent = {
  async compose(db, messages, options = {}) {
    const isNotice = (m: (typeof messages)[number]) => m.attachments.some((a) => a.type === EXCEPTIONS_ATTACHMENT);
    const composed = await receiptMailContent.compose(
      db,
      messages.filter((m) => !isNotice(m)),
      options,
    );
    for (const message of messages.filter(isNotice)) {
      try {
        const attachments = options.bodiesOnly
          ? []
          : await Promise.all(message.attachments.map((ref) => exceptionsCsv(db, ref)));
        composed.set(message.id, { rendered: null, attachments } satisfies ComposedMail);
      } catch (err) {
        composed.set(message.id, err as Error);
      }
    }
    return composed;
  },
};
