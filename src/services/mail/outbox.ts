import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailAttachmentRef } from '../../infrastructure/db/schema-receipts.js';
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

/**
 * Renders what a message of a kind says, and what its attachment references are: given to the delivery worker by
 * the services that write such messages (receipts today, partner notices later), so the outbox knows none of them.
 */
export interface MailContent {
  /** The subject and bodies of a message written without them (rendered once, at its first attempt). */
  render(db: Kysely<DB>, message: { kind: string; attachments: MailAttachmentRef[] }): Promise<RenderedMail>;
  attachment(db: Kysely<DB>, ref: MailAttachmentRef): Promise<MailAttachment>;
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
