import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the reversals of donations (migration 022, docs/reversals.md). */
export interface ReversalTables {
  donation_reversals: DonationReversalsTable;
}

export interface DonationReversalsTable {
  id: string;
  seq: ColumnType<string, never, never>;
  donation_id: string;
  donation_reference_id: string;
  partner_id: string;
  environment: string;
  amount_cents: ColumnType<string | number, number, number>;
  reason: string;
  transaction_id: string | null;
  requested_by: string;
  note: string | null;
  owed_back: boolean;
  repaid_at: Timestamp | null;
  repaid_by: string | null;
  request_hash: string | null;
  correlation_id: string | null;
  created_at: Generated<Date>;
}
export type DonationReversal = Selectable<DonationReversalsTable>;
