import { GRANT_ADVICE_ATTACHMENT, grantAdviceMailContent } from '../grants/advice/content.js';
import { exceptionsCsv } from '../notices/content.js';
import { EXCEPTIONS_ATTACHMENT } from '../notices/send.js';
import { receiptMailContent } from '../receipts/content.js';
import type { ComposedMail, MailContent } from './outbox.js';

/**
 * What every message of the outbox says and attaches: receipts' content, grants' advices (services/grants/advice),
 * and the partner notices' digest CSV. A notice is written with its subject and text, so only its attachment is made
 * here.
 */
export const mailContent: MailContent = {
  async compose(db, messages, options = {}) {
    const isNotice = (m: (typeof messages)[number]) => m.attachments.some((a) => a.type === EXCEPTIONS_ATTACHMENT);
    const isAdvice = (m: (typeof messages)[number]) => m.attachments.some((a) => a.type === GRANT_ADVICE_ATTACHMENT);
    const composed = await receiptMailContent.compose(
      db,
      messages.filter((m) => !isNotice(m) && !isAdvice(m)),
      options,
    );
    const advices = messages.filter(isAdvice);
    if (advices.length > 0)
      for (const [id, mail] of await grantAdviceMailContent.compose(db, advices, options)) composed.set(id, mail);
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
