import { sql, type Kysely } from 'kysely';
import { everyColumn } from '../db/columns.js';
import type { DB } from '../db/schema.js';
import type { MailAttachmentRef, MailMessage, MailOutboxTable } from '../db/schema-receipts.js';
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

const MESSAGE_COLUMNS = everyColumn<MailOutboxTable>()(
  'id',
  'seq',
  'kind',
  'recipient',
  'subject',
  'text_body',
  'html_body',
  'attachments',
  'about',
  'status',
  'attempts',
  'last_error',
  'delivered_to',
  'sent_at',
  'created_at',
  'updated_at',
);

type Body = 'text_body' | 'html_body';
/** A message as the outbox's list shows it: everything but its bodies. */
const LISTED_COLUMNS = MESSAGE_COLUMNS.filter(
  (column): column is Exclude<(typeof MESSAGE_COLUMNS)[number], Body> =>
    column !== 'text_body' && column !== 'html_body',
);

/**
 * The messages of these ids, row-locked while a batch's attempt decides what to do with each. One text whatever the
 * batch's size, with its columns written out, so each connection prepares it once.
 */
export function lockMessages(trx: Kysely<DB>, ids: readonly string[]): Promise<MailMessage[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('mail_outbox')
    .select(MESSAGE_COLUMNS)
    .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** A message not sent yet (pending: waiting or on the wire; held), as the order of its `about` needs it. */
export interface UnsentMessage {
  id: string;
  about: string;
  seq: string;
  status: 'pending' | 'held';
}

/**
 * The messages about these things that are neither sent nor failed, other than those of `except` (a batch's own):
 * a message may leave only once every earlier one about the same thing has (docs/decisions/0057-mail-about-one-thing-in-order.md).
 */
export function unsentAbout(
  trx: Kysely<DB>,
  abouts: readonly string[],
  except: readonly string[],
): Promise<UnsentMessage[]> {
  if (abouts.length === 0) return Promise.resolve([]);
  return trx
    .selectFrom('mail_outbox')
    .select(['id', 'about', 'seq', 'status'])
    .where('about', '=', sql<string>`any(${[...abouts]}::text[])`)
    .where('status', 'in', ['pending', 'held'])
    .where('id', '<>', sql<string>`all(${[...except]}::uuid[])`)
    .execute() as Promise<UnsentMessage[]>;
}

/** Takes back the attempt counted for messages that were not tried after all (an earlier one was not accepted). */
export async function uncountAttempts(db: Kysely<DB>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('mail_outbox')
    .set({ attempts: sql<number>`greatest(attempts - 1, 0)`, updated_at: sql<Date>`now()` })
    .where('id', '=', sql<string>`any(${[...ids]}::uuid[])`)
    .execute();
}

/** What an attempt decided for one message of a batch: bodies rendered now (if any), and its status. */
export interface AttemptDecision {
  id: string;
  rendered: { subject: string; text: string; html: string | null } | null;
  status: 'pending' | 'held';
  /** Why it is held; null for a message about to be sent (its last error is kept until it is). */
  heldBecause: string | null;
}

/**
 * Records a batch's decisions in one statement: bodies rendered at a first attempt (never changed after), held
 * messages with why, and one more attempt for each message about to be sent.
 */
export async function recordDecisions(trx: Kysely<DB>, decisions: readonly AttemptDecision[]): Promise<void> {
  if (decisions.length === 0) return;
  const rows = decisions.map((d) => ({
    id: d.id,
    r: d.rendered !== null,
    s: d.rendered?.subject ?? null,
    t: d.rendered?.text ?? null,
    h: d.rendered?.html ?? null,
    st: d.status,
    e: d.heldBecause,
  }));
  await sql`
    update mail_outbox m set
      subject = case when r.r then r.s else m.subject end,
      text_body = case when r.r then r.t else m.text_body end,
      html_body = case when r.r then r.h else m.html_body end,
      status = r.st,
      last_error = case when r.st = 'held' then r.e else m.last_error end,
      attempts = m.attempts + case when r.st = 'pending' then 1 else 0 end,
      updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as r(id uuid, r boolean, s text, t text, h text, st text, e text)
    where m.id = r.id`.execute(trx);
}

/** Records messages the server accepted, each with where it went, in one statement. */
export async function markSent(db: Kysely<DB>, sent: readonly { id: string; to: string }[], at: Date): Promise<void> {
  if (sent.length === 0) return;
  await sql`
    update mail_outbox m set status = 'sent', sent_at = ${at}, delivered_to = r.d, last_error = null,
                             updated_at = now()
    from jsonb_to_recordset(${JSON.stringify(sent.map((m) => ({ id: m.id, d: m.to })))}::jsonb) as r(id uuid, d text)
    where m.id = r.id`.execute(db);
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
): Promise<Omit<MailMessage, Body>[]> {
  let query = db.selectFrom('mail_outbox').select(LISTED_COLUMNS);
  query = filter.status ? query.where('status', '=', filter.status as 'sent') : query.where('status', '<>', 'sent');
  return query.orderBy('seq', 'desc').limit(filter.limit).execute();
}

/** How many messages are in each status. */
/**
 * The count of each status but `sent`: what waits or failed, read through the partial index of unsent messages, so its
 * cost follows the messages waiting, not every message ever sent (the dashboard reads it on every visit).
 */
export async function countUnsentByStatus(db: Kysely<DB>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', '<>', 'sent')
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Messages per status: every one still waiting (pending, held, failed), through the index of unsent messages, and
 * those sent since `sentSince`, through the index of their sending time. Sent messages are the history: counting them
 * all read every message ever written on each look at the outbox
 * (docs/decisions/0074-operators-counts-of-the-history-bounded.md).
 */
export async function countByStatus(db: Kysely<DB>, sentSince: Date): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
    .where('status', '<>', 'sent')
    .groupBy('status')
    .execute();
  const sent = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'sent')
    .where('sent_at', '>=', sentSince)
    .executeTakeFirstOrThrow();
  return { ...Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])), sent: Number(sent.n) };
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
