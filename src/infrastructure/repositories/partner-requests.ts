import { sql, type Insertable, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { PartnerRequestRow, PartnerRequestsTable } from '../db/schema-request-log.js';

/** Rows deleted per statement when pruning: short transactions however large the backlog. */
const PRUNE_CHUNK = 5000;

export type NewPartnerRequest = Insertable<PartnerRequestsTable>;

/**
 * A batch of logged requests in one statement of one array per column (unnest): thirteen parameters however many
 * rows, where a multi-row VALUES of 500 rows has 6,500 placeholders for the query builder to compile and the driver
 * to bind — most of what the log cost the service per request (docs/performance/request-log.md).
 */
export async function insertPartnerRequests(db: Kysely<DB>, rows: NewPartnerRequest[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof NewPartnerRequest>(key: K) => rows.map((row) => row[key] ?? null);
  const at = rows.map((row) => (row.at instanceof Date ? row.at.toISOString() : String(row.at)));
  await sql`
    insert into partner_requests (partner_id, at, method, route, status, error_code, error_cause, latency_us,
      correlation_id, client_id, environment, request_body, response_body)
    select * from unnest(${column('partner_id')}::uuid[], ${at}::timestamptz[], ${column('method')}::text[],
      ${column('route')}::text[], ${column('status')}::smallint[], ${column('error_code')}::text[],
      ${column('error_cause')}::text[], ${column('latency_us')}::integer[], ${column('correlation_id')}::text[],
      ${column('client_id')}::text[], ${column('environment')}::text[], ${column('request_body')}::text[],
      ${column('response_body')}::text[])`.execute(db);
}

/** The partner and environment of each known client id (refused calls name only their client id). */
export async function credentialsOfClientIds(
  db: Kysely<DB>,
  clientIds: string[],
): Promise<Map<string, { partnerId: string; environment: string }>> {
  if (clientIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('credentials')
    .select(['client_id', 'partner_id', 'environment'])
    .where('client_id', 'in', clientIds)
    .execute();
  return new Map(rows.map((r) => [r.client_id, { partnerId: r.partner_id, environment: r.environment }]));
}

/** Deletes the requests logged before `before`, a chunk per statement; the number deleted. */
export async function prunePartnerRequests(db: Kysely<DB>, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql`
      delete from partner_requests where id in (
        select id from partner_requests where at < ${before} order by at limit ${PRUNE_CHUNK})`.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0);
    total += deleted;
    if (deleted < PRUNE_CHUNK) return total;
  }
}

export interface PartnerRequestFilter {
  correlationId?: string;
  /** An exact status, or a class: [400, 500) for 4xx. */
  status?: { from: number; to: number };
  route?: string;
  from?: Date;
  to?: Date;
}

/** Where a page starts: after the last row of the previous page (newest first). */
export interface PartnerRequestCursor {
  at: Date;
  id: string;
}

export type PartnerRequestSummary = Omit<PartnerRequestRow, 'request_body' | 'response_body'>;

/** One page of a partner's requests, newest first, matching `filter`, after `cursor`. */
export function searchPartnerRequests(
  db: Kysely<DB>,
  partnerId: string,
  filter: PartnerRequestFilter,
  cursor: PartnerRequestCursor | null,
  limit: number,
): Promise<PartnerRequestSummary[]> {
  let query = db
    .selectFrom('partner_requests')
    .select([
      'id',
      'partner_id',
      'at',
      'method',
      'route',
      'status',
      'error_code',
      'error_cause',
      'latency_us',
      'correlation_id',
      'client_id',
      'environment',
    ])
    .where('partner_id', '=', partnerId);
  if (filter.correlationId !== undefined) query = query.where('correlation_id', '=', filter.correlationId);
  if (filter.status) query = query.where('status', '>=', filter.status.from).where('status', '<', filter.status.to);
  if (filter.route !== undefined) query = query.where('route', '=', filter.route);
  if (filter.from) query = query.where('at', '>=', filter.from);
  if (filter.to) query = query.where('at', '<', filter.to);
  if (cursor) query = query.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(cursor.at, cursor.id)));
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** One of a partner's requests with its bodies; undefined for another partner's, as for an unknown id. */
export function partnerRequestById(
  db: Kysely<DB>,
  partnerId: string,
  id: string,
): Promise<PartnerRequestRow | undefined> {
  return db
    .selectFrom('partner_requests')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .where('id', '=', id)
    .executeTakeFirst();
}
