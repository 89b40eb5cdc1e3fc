import type { Kysely } from 'kysely';
import type { AdviceFacts } from '../../../domain/grant-advice.js';
import type { DB } from '../../../infrastructure/db/schema.js';
import type { ComposedMail, MailAttachment, MailContent } from '../../mail/outbox.js';
import { grantAdvicePdf } from '../../receipts/pdf-thread.js';
import { adviceFactsByIds } from './facts.js';
import { adviceMail } from './mail.js';

export const GRANT_ADVICE_ATTACHMENT = 'grant-advice';

/**
 * What advices' messages say and attach, for the mail delivery worker: the grants of a batch are read together,
 * and each one's facts serve both its e-mail and its PDF (rendered in the PDF thread, as receipts are).
 */
export const grantAdviceMailContent: MailContent = {
  async compose(db, messages, options = {}) {
    const ids = messages.flatMap((m) =>
      m.attachments.filter((a) => a.type === GRANT_ADVICE_ATTACHMENT).map((a) => a.id),
    );
    const facts = await adviceFactsByIds(db, ids);
    const composed = new Map<string, ComposedMail | Error>();
    await Promise.all(
      messages.map(async (message) => {
        try {
          const ref = message.attachments.find((a) => a.type === GRANT_ADVICE_ATTACHMENT);
          const found = ref && facts.get(ref.id);
          if (!found) throw new Error(`grant ${ref?.id ?? '?'} has no advice`);
          composed.set(message.id, {
            rendered: message.subject === null ? adviceMail(found) : null,
            attachments: options.bodiesOnly ? [] : [await adviceAttachment(found)],
          });
        } catch (err) {
          composed.set(message.id, err as Error);
        }
      }),
    );
    return composed;
  },
};

async function adviceAttachment(facts: AdviceFacts): Promise<MailAttachment> {
  return {
    filename: `${facts.rctiNumber ?? 'advice'}-${facts.lodgementReference}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_'),
    contentType: 'application/pdf',
    content: await grantAdvicePdf(facts),
  };
}

/** The PDF of one grant's advice, as its club got it; null when the grant was never advised. */
export async function advicePdfOf(db: Kysely<DB>, grantId: string): Promise<MailAttachment | null> {
  const facts = (await adviceFactsByIds(db, [grantId])).get(grantId);
  return facts ? adviceAttachment(facts) : null;
}
