import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { NoticeDetails, PartnerNotice } from '../db/schema-partner-contacts.js';

export interface NewNotice {
  partnerId: string;
  kind: string;
  roles: string[];
  subject: string;
  onceKey?: string | null;
  details?: NoticeDetails;
  at: Date;
}

/**
 * Records a notice; its id, or null when one with its `onceKey` exists already. A second transaction inserting the
 * same key waits for the first to end, then writes nothing: instances racing each other send it once.
 */
export async function insertNotice(db: Kysely<DB>, notice: NewNotice): Promise<string | null> {
  const row = await db
    .insertInto('partner_notices')
    .values({
      partner_id: notice.partnerId,
      kind: notice.kind,
      roles: notice.roles,
      subject: notice.subject,
      once_key: notice.onceKey ?? null,
      details: JSON.stringify(notice.details ?? {}),
      created_at: notice.at,
    })
    .onConflict((oc) => oc.column('once_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export function findNotice(db: Kysely<DB>, id: string): Promise<PartnerNotice | undefined> {
  return db.selectFrom('partner_notices').selectAll().where('id', '=', id).executeTakeFirst();
}

/** What the outbox says of one message of a notice. */
export interface NoticeMessageRow {
  notice_id: string;
  recipient: string;
  status: string;
  delivered_to: string | null;
  sent_at: Date | null;
  last_error: string | null;
}

/** A partner's latest notices, newest first, and the messages each was sent as (one per contact). */
export async function noticesOf(
  db: Kysely<DB>,
  partnerId: string,
  limit: number,
): Promise<{ notices: PartnerNotice[]; messages: NoticeMessageRow[] }> {
  const notices = await db
    .selectFrom('partner_notices')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  if (notices.length === 0) return { notices, messages: [] };
  const messages = await db
    .selectFrom('mail_outbox')
    .select([
      sql<string>`substr(about, 8)`.as('notice_id'),
      'recipient',
      'status',
      'delivered_to',
      'sent_at',
      'last_error',
    ])
    .where(
      'about',
      'in',
      notices.map((n) => `notice:${n.id}`),
    )
    .orderBy('seq')
    .execute();
  return { notices, messages };
}

/** The partners of a notice sent to every active partner (a deprecation). */
export async function activePartnerIds(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.selectFrom('partners').select('id').where('status', '=', 'active').orderBy('name').execute();
  return rows.map((row) => row.id);
}

/** The partner whose webhook endpoint this is. */
export async function endpointPartner(db: Kysely<DB>, endpointId: string): Promise<string> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('partner_id')
    .where('id', '=', endpointId)
    .executeTakeFirstOrThrow();
  return row.partner_id;
}

/**
 * Partners whose remittance batches completed with exceptions in [from, to), with those batches (oldest first):
 * what a day's digest lists.
 */
export async function batchesWithExceptions(
  db: Kysely<DB>,
  from: Date,
  to: Date,
): Promise<{ partnerId: string; batchIds: string[] }[]> {
  const rows = await db
    .selectFrom('remittance_batches')
    .select(['partner_id', 'id'])
    .where('status', '=', 'completed_with_exceptions')
    .where('completed_at', '>=', from)
    .where('completed_at', '<', to)
    .orderBy('completed_at')
    .orderBy('id')
    .execute();
  const byPartner = new Map<string, string[]>();
  for (const row of rows) byPartner.set(row.partner_id, [...(byPartner.get(row.partner_id) ?? []), row.id]);
  return [...byPartner].map(([partnerId, batchIds]) => ({ partnerId, batchIds }));
}

/** How many entries of these batches are exceptions (any outcome but matched). */
export async function exceptionCount(db: Kysely<DB>, batchIds: string[]): Promise<number> {
  const row = await db
    .selectFrom('remittance_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('batch_id', 'in', batchIds)
    .where('outcome', 'is not', null)
    .where('outcome', '<>', 'matched')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
