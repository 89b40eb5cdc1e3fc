import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the remittance and reconciliation tables (migrations 001 and 003, and 021's debit settlements). */

export interface RemittanceBatchesTable {
  id: Generated<string>;
  partner_id: string;
  environment: string;
  channel: string;
  fundraiser_id: string;
  account_id: string;
  status: Generated<string>;
  entry_count: number;
  total_cents: number;
  request_hash: string;
  correlation_id: string;
  created_at: Generated<Date>;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  // Migration 003 (reconciliation).
  outcome_counts: ColumnType<Record<string, number>, string | undefined, string>;
  exception_count: number | null;
  attempts: Generated<number>;
  last_error: string | null;
  last_error_at: Timestamp | null;
  dead_lettered_at: Timestamp | null;
}

export interface RemittanceEntriesTable {
  batch_id: string;
  position: number;
  bank_reference_id: string;
  amount_cents: number;
  donation_ids: string[];
  outcome: string | null;
  outcome_detail: string | null;
}

/** Migration 003: a bank transaction that settled donations (reconciliation). */
export interface RemittanceBankReferencesTable {
  partner_id: string;
  environment: string;
  bank_reference_id: string;
  batch_id: string;
  position: number;
  amount_cents: number;
  donation_ids: string[];
  settled_at: Generated<Date>;
}

/**
 * Migration 003: a donation settled by a bank transaction; at most one per donation. Migration 021: or by the debit
 * that collected it (then no bank reference, batch or position).
 */
export interface DonationSettlementsTable {
  donation_id: string;
  donation_reference_id: string;
  partner_id: string;
  environment: string;
  bank_reference_id: string | null;
  batch_id: string | null;
  position: number | null;
  debit_id: ColumnType<string | null, string | null | undefined, string | null>;
  amount_cents: number;
  settled_at: Generated<Date>;
}
