import type { ColumnType, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the partner request log (migration 054) and its counts (migration 055). */
export interface RequestLogTables {
  partner_requests: PartnerRequestsTable;
  partner_request_counts: PartnerRequestCountsTable;
}

/** Requests per partner, minute, route and status (docs/decisions/0092-successful-reads-counted-not-itemised.md). */
export interface PartnerRequestCountsTable {
  partner_id: string;
  minute: Timestamp;
  /** '' when the request's credential named none. */
  environment: string;
  method: string;
  route: string;
  status: number;
  requests: number;
  latency_us_total: ColumnType<string, string | number, string | number>;
  latency_us_max: number;
}

export interface PartnerRequestsTable {
  id: ColumnType<string, never, never>;
  partner_id: string;
  at: Timestamp;
  method: string;
  route: string;
  status: number;
  error_code: string | null;
  error_cause: string | null;
  latency_us: number;
  correlation_id: string;
  client_id: string | null;
  environment: string | null;
  request_body: string | null;
  response_body: string | null;
}
export type PartnerRequestRow = Selectable<PartnerRequestsTable>;
