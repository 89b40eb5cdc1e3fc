import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailMessage } from '../../infrastructure/db/schema-receipts.js';
import { insertMessage, type NewMessage } from '../../infrastructure/repositories/mail-outbox.js';
import { enqueueJob, mailDeliveryJob } from '../jobs/definitions.js';

/** What a message's content is made of when it is sent: rendered bodies and the bytes of what it attaches. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string | null;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A message ready to leave: its bodies when they are rendered now (null: it was written with them), its files. */
export interface ComposedMail {
  rendered: RenderedMail | null;
  attachments: MailAttachment[];
}

/**
 * Makes what messages of a kind say and attach: given to the delivery worker by the services that write such
 * messages (receipts, partner notices), so the outbox knows none of them.
 */
export interface MailContent {
  /**
   * The content of a batch of messages, what they refer to read together: bodies for those written without them
   * (rendered once, at their first attempt), and, unless `bodiesOnly`, every attachment's bytes. A message whose
   * content cannot be made maps to its error; the others are unaffected.
   */
  compose(
    db: Kysely<DB>,
    messages: readonly MailMessage[],
    options?: { bodiesOnly?: boolean },
  ): Promise<Map<string, ComposedMail | Error>>;
}

/**
 * Writes a message to the outbox and its delivery job, in the caller's transaction: both exist if and only if the
 * change the message tells about commits. Returns the message's id.
 */
export async function enqueueMail(trx: Kysely<DB>, message: NewMessage): Promise<string> {
  const id = await insertMessage(trx, message);
  await enqueueJob(trx, mailDeliveryJob, { messageId: id });
  return id;
}
