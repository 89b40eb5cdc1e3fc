import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { MailAttachmentRef, MailMessage } from '../db/schema-receipts.js';
import { insertJobsForRows } from '../queue/enqueue-rows.js';
import { MAIL_DELIVERY_QUEUE } from '../queue/queues.js';

export interface NewMessage {
  kind: string;
  recipient: string;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  attachments?: MailAttachmentRef[];
  about?: string | null;
}

export async function insertMessage(trx: Kysely<DB>, message: NewMessage): Promise<string> {
  const row = await trx
    .insertInto('mail_outbox')
    .values({
      kind: message.kind,
      recipient: message.recipient,
      subject: message.subject ?? null,
      text_body: message.text ?? null,
      html_body: message.html ?? null,
      attachments: JSON.stringify(message.attachments ?? []),
      about: message.about ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The message, row-locked while an attempt decides what to do with it. */
export function lockMessage(trx: Kysely<DB>, id: string): Promise<MailMessage | undefined> {
  return trx.selectFrom('mail_outbox').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

type MessageChange = Partial<{
  status: 'pending' | 'held' | 'sent' | 'failed';
  subject: string;
  text_body: string;
  html_body: string | null;
  last_error: string | null;
  delivered_to: string;
  sent_at: Date;
}>;

export async function updateMessage(db: Kysely<DB>, id: string, change: MessageChange & { attempt?: true }) {
  const { attempt, ...values } = change;
  await db
    .updateTable('mail_outbox')
    .set({ ...values, updated_at: sql<Date>`now()`, ...(attempt ? { attempts: sql<number>`attempts + 1` } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Messages about one thing ('donation:DON-…'), oldest first. */
export function messagesAbout(db: Kysely<DB>, about: string): Promise<MailMessage[]> {
  return db.selectFrom('mail_outbox').selectAll().where('about', '=', about).orderBy('seq').execute();
}

/** The outbox, newest first: with a status, only those; without, every message not sent. */
export function listMessages(
  db: Kysely<DB>,
  filter: { status?: string; limit: number },
): Promise<Omit<MailMessage, 'text_body' | 'html_body'>[]> {
  let query = db
    .selectFrom('mail_outbox')
    .select([
      'id',
      'seq',
      'kind',
      'recipient',
      'subject',
      'attachments',
      'about',
      'status',
      'attempts',
      'last_error',
      'delivered_to',
      'sent_at',
      'created_at',
      'updated_at',
    ]);
  query = filter.status ? query.where('status', '=', filter.status as 'sent') : query.where('status', '<>', 'sent');
  return query.orderBy('seq', 'desc').limit(filter.limit).execute();
}

/** How many messages are in each status. */
export async function countByStatus(db: Kysely<DB>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Puts held messages back in the queue (SMTP_URL is set now, or a QA inbox is), each with a delivery job: one
 * statement, so instances starting together release each message once (the second finds it pending).
 */
export async function releaseHeld(trx: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with released as (
      update mail_outbox set status = 'pending', last_error = null, updated_at = now()
      where status = 'held' returning id
    ),
    jobs as (${insertJobsForRows(MAIL_DELIVERY_QUEUE, 'released', 'messageId')})
    select count(*)::int as n from jobs`.execute(trx);
  return Number(rows[0]?.n ?? 0);
}
