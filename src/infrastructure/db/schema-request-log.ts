import type { ColumnType, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the partner request log (migration 054). */
export interface RequestLogTables {
  partner_requests: PartnerRequestsTable;
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
