import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  partnerRequestById,
  searchPartnerRequests,
  type PartnerRequestFilter,
  type PartnerRequestSummary,
} from '../../infrastructure/repositories/partner-requests.js';

/** What a search of a partner's request log asks: every field optional; plain text as typed in a form. */
export interface RequestSearch {
  correlationId?: string;
  /** `404` (exact) or `4xx` (a class). */
  status?: string;
  /** A route's template as logged (`/v1/donations`). */
  route?: string;
  from?: Date;
  to?: Date;
  /** The `next` of the previous page. */
  after?: string;
  /** 1-200; 50 by default. */
  limit?: number;
}

export interface LoggedRequest {
  id: string;
  at: Date;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
  errorCause: string | null;
  latencyMs: number;
  correlationId: string;
  clientId: string | null;
  environment: string | null;
}

export interface LoggedRequestDetail extends LoggedRequest {
  /** Masked, as JSON text (possibly cut: decision 0088). */
  requestBody: string | null;
  responseBody: string | null;
}

export interface RequestPage {
  requests: LoggedRequest[];
  /** The cursor of the next page, or null on the last. */
  next: string | null;
}

/** A search that cannot be run: the field and why, for the form or the CLI to show. */
export class RequestSearchError extends Error {
  constructor(
    readonly field: string,
    why: string,
  ) {
    super(`${field}: ${why}`);
  }
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** The status filter as a range: `404` → [404, 405), `4xx` → [400, 500). */
function statusRange(text: string): { from: number; to: number } {
  const value = text.trim().toLowerCase();
  const exact = /^([1-5]\d\d)$/.exec(value);
  if (exact) return { from: Number(exact[1]), to: Number(exact[1]) + 1 };
  const kind = /^([1-5])xx$/.exec(value);
  if (kind) return { from: Number(kind[1]) * 100, to: Number(kind[1]) * 100 + 100 };
  throw new RequestSearchError('status', 'must be a status such as 404, or a class such as 4xx');
}

/** A page cursor: the last row's time and id, opaque to the caller. */
function encodeCursor(row: { at: Date; id: string }): string {
  return Buffer.from(`${row.at.toISOString()}|${row.id}`).toString('base64url');
}

function decodeCursor(text: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const when = new Date(at ?? '');
  if (!id || !/^\d{1,18}$/.test(id) || Number.isNaN(when.getTime()))
    throw new RequestSearchError('after', 'is not a cursor this search gave');
  return { at: when, id };
}

const view = (row: PartnerRequestSummary): LoggedRequest => ({
  id: String(row.id),
  at: row.at,
  method: row.method,
  route: row.route,
  status: row.status,
  errorCode: row.error_code,
  errorCause: row.error_cause,
  latencyMs: row.latency_us / 1000,
  correlationId: row.correlation_id,
  clientId: row.client_id,
  environment: row.environment,
});

/** One page of a partner's logged requests, newest first (keyset pagination on time and id). */
export async function searchRequests(db: Kysely<DB>, partnerId: string, search: RequestSearch): Promise<RequestPage> {
  const limit = search.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new RequestSearchError('limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
  const filter: PartnerRequestFilter = {};
  const correlationId = search.correlationId?.trim();
  if (correlationId) filter.correlationId = correlationId.toLowerCase();
  if (search.status?.trim()) filter.status = statusRange(search.status);
  if (search.route?.trim()) filter.route = search.route.trim();
  for (const field of ['from', 'to'] as const) {
    const date = search[field];
    if (date && Number.isNaN(date.getTime())) throw new RequestSearchError(field, 'is not a valid time');
    if (date) filter[field] = date;
  }
  const cursor = search.after ? decodeCursor(search.after) : null;
  const rows = await searchPartnerRequests(db, partnerId, filter, cursor, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { requests: page.map(view), next: rows.length > limit && last ? encodeCursor(last) : null };
}

/** One of the partner's requests with its masked bodies; null for an unknown id and for another partner's alike. */
export async function requestDetail(
  db: Kysely<DB>,
  partnerId: string,
  id: string,
): Promise<LoggedRequestDetail | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const row = await partnerRequestById(db, partnerId, id);
  if (!row) return null;
  return { ...view(row), requestBody: row.request_body, responseBody: row.response_body };
}
