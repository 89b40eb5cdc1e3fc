import type { Kysely } from 'kysely';
import type { MailPolicy } from '../../config/mail.js';
import type { DB } from '../../infrastructure/db/schema.js';
import type { MailMessage } from '../../infrastructure/db/schema-receipts.js';
import { describeFailure, isPermanentFailure, type MailTransport } from '../../infrastructure/mail/smtp.js';
import { lockMessage, updateMessage } from '../../infrastructure/repositories/mail-outbox.js';
import type { MailContent, RenderedMail } from './outbox.js';

export interface MailDeps {
  db: Kysely<DB>;
  policy: MailPolicy;
  /** Null without SMTP_URL: every message is held. */
  transport: MailTransport | null;
  content: MailContent;
}

export type DeliveryOutcome = 'sent' | 'held' | 'failed' | 'retrying' | 'skipped';

/** Where a message may go under the settings: its recipient in production, the QA inbox elsewhere, or nowhere. */
export function destinationOf(
  policy: MailPolicy,
  recipient: string,
  hasTransport: boolean,
): { to: string } | { held: string } {
  if (!hasTransport) return { held: 'SMTP_URL is not set: the message waits in the outbox' };
  if (policy.production) return { to: recipient };
  if (policy.redirectTo) return { to: policy.redirectTo };
  return { held: 'Outside production nothing is sent to a recipient, and MAIL_REDIRECT_TO is not set' };
}

/**
 * One attempt at one message. First, in a short transaction: a message sent or failed is left alone; one that
 * cannot go anywhere under the settings is held; otherwise it is rendered if it never was (then it never changes)
 * and its attempt counted. Then it is sent, with a Message-ID of its own that every attempt repeats. A 5xx answer
 * fails it for good; any other failure is thrown, so the queue retries it with backoff, until its last attempt.
 */
export async function deliverMessage(
  deps: MailDeps,
  messageId: string,
  job: { retryCount: number; retryLimit: number },
): Promise<DeliveryOutcome> {
  const prepared = await deps.db.transaction().execute((trx) => prepare(trx, deps, messageId));
  if (prepared === 'held' || prepared === 'skipped') return prepared;
  const { message, to } = prepared;
  try {
    const attachments = [];
    for (const ref of message.attachments) attachments.push(await deps.content.attachment(deps.db, ref));
    await deps.transport!.send({
      from: deps.policy.from,
      to,
      subject: message.subject!,
      text: message.text_body!,
      html: message.html_body,
      messageId: `<${message.id}@${domainOf(deps.policy.from)}>`,
      attachments,
    });
  } catch (err) {
    const final = isPermanentFailure(err) || job.retryCount >= job.retryLimit;
    await updateMessage(deps.db, message.id, {
      last_error: describeFailure(err),
      ...(final ? { status: 'failed' } : {}),
    });
    if (final) return 'failed';
    throw err;
  }
  await updateMessage(deps.db, message.id, { status: 'sent', sent_at: new Date(), delivered_to: to, last_error: null });
  return 'sent';
}

async function prepare(
  trx: Kysely<DB>,
  deps: MailDeps,
  messageId: string,
): Promise<'held' | 'skipped' | { message: MailMessage; to: string }> {
  const message = await lockMessage(trx, messageId);
  if (!message || message.status === 'sent' || message.status === 'failed') return 'skipped';
  const rendered: RenderedMail | null = message.subject === null ? await deps.content.render(trx, message) : null;
  const body = rendered ? { subject: rendered.subject, text_body: rendered.text, html_body: rendered.html } : {};
  const destination = destinationOf(deps.policy, message.recipient, deps.transport !== null);
  if ('held' in destination) {
    await updateMessage(trx, message.id, { ...body, status: 'held', last_error: destination.held });
    return 'held';
  }
  await updateMessage(trx, message.id, { ...body, status: 'pending', attempt: true });
  return { message: { ...message, ...body }, to: destination.to };
}

/** The domain of MAIL_FROM's address, for Message-IDs (`<id@domain>`, RFC 5322 3.6.4). */
function domainOf(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split('@')[1]?.trim() || 'localhost';
}
