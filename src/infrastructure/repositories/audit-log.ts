import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface AuditEntryInput {
  at: Date;
  actor: string;
  action: string;
  subject: string | null;
  details: Record<string, unknown>;
}

export interface AuditEntry extends AuditEntryInput {
  id: number;
}

export interface AuditFilter {
  actor?: string;
  /** Any of these actors. */
  actors?: string[];
  /** Matches the action itself or its family: "credential" matches "credential.rotate". */
  action?: string;
  /** Any of these subjects. */
  subjects?: string[];
  since?: Date;
  until?: Date;
  /** Entries older than this one (by time, then id): the last entry of the page before. */
  before?: number;
  limit: number;
}

export async function insertAuditEntry(db: Kysely<DB>, entry: AuditEntryInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: entry.at,
      actor: entry.actor,
      action: entry.action,
      subject: entry.subject,
      details: JSON.stringify(entry.details),
    })
    .execute();
}

/** Newest first. */
export async function listAuditEntries(db: Kysely<DB>, filter: AuditFilter): Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').select(['id', 'at', 'actor', 'action', 'subject', 'details']);
  if (filter.actor) query = query.where('actor', '=', filter.actor);
  if (filter.actors?.length) query = query.where('actor', 'in', filter.actors);
  if (filter.action) {
    const action = filter.action;
    query = query.where((eb) => eb.or([eb('action', '=', action), eb('action', 'like', `${escapeLike(action)}.%`)]));
  }
  if (filter.subjects?.length) query = query.where('subject', 'in', filter.subjects);
  if (filter.since) query = query.where('at', '>=', filter.since);
  if (filter.until) query = query.where('at', '<', filter.until);
  if (filter.before !== undefined)
    query = query.where(sql<boolean>`(at, id) < (select b.at, b.id from audit_log b where b.id = ${filter.before})`);
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function auditEntryExists(db: Kysely<DB>, id: number): Promise<boolean> {
  return (await db.selectFrom('audit_log').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
