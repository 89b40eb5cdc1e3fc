import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the bank statement tables (migration 024, docs/bank-statements.md). */
export interface BankTables {
  bank_statements: BankStatementsTable;
  bank_lines: BankLinesTable;
  bank_open_lines: BankOpenLinesTable;
  bank_open_entries: BankOpenEntriesTable;
  bank_matches: BankMatchesTable;
  bank_match_lines: BankMatchLinksTable;
  bank_match_entries: BankMatchEntriesTable;
  bank_suggestions: BankSuggestionsTable;
}

/** A bigint column: read as a string by pg's int8 parser (Number() it), written as a number. */
type Int8 = ColumnType<string | number, number, number>;

export interface BankStatementsTable {
  id: Generated<string>;
  file_name: string;
  file_sha256: string;
  format: 'camt053' | 'csv';
  layout: string;
  statement_ref: string | null;
  lines_read: number;
  lines_added: number;
  imported_by: string;
  imported_at: Generated<Date>;
}

export interface BankLinesTable {
  id: ColumnType<string | number, never, never>;
  statement_id: string;
  line_no: number;
  account: string;
  booked_on: string;
  value_on: string | null;
  credit: boolean;
  amount_cents: Int8;
  description: string;
  reference: string | null;
  bank_ref: string | null;
  tokens: string[];
  dedupe_key: string;
  imported_at: Generated<Date>;
}

/** The credit lines that pay nothing at the moment, kept by triggers (migration 040). */
export interface BankOpenLinesTable {
  line_id: Int8;
  booked_on: string;
  amount_cents: Int8;
  tokens: string[];
  never_matched: boolean;
}

/** The `matched` remittance entries no active match has paid, kept by triggers (migration 045). */
export interface BankOpenEntriesTable {
  batch_id: string;
  position: number;
  received_at: Timestamp;
  partner_id: string;
  bank_reference_id: string;
  amount_cents: Int8;
}

export interface BankMatchesTable {
  id: ColumnType<string | number, never, never>;
  method: 'automatic' | 'confirmed';
  rule: string;
  line_cents: Int8;
  entry_cents: Int8;
  suggestion_id: ColumnType<string | number | null, number | null | undefined, never>;
  decided_by: string;
  decided_at: Generated<Date>;
  unmatched_by: string | null;
  unmatched_at: Timestamp | null;
  unmatch_reason: string | null;
}

export interface BankMatchLinksTable {
  match_id: Int8;
  line_id: Int8;
  amount_cents: Int8;
  active: Generated<boolean>;
}

export interface BankMatchEntriesTable {
  match_id: Int8;
  batch_id: string;
  position: number;
  amount_cents: Int8;
  received_at: Generated<Date>;
  active: Generated<boolean>;
}

export interface BankSuggestionsTable {
  id: ColumnType<string | number, never, never>;
  rule: string;
  line_ids: ColumnType<string[], number[], never>;
  entry_keys: string[];
  signature: string;
  score: number;
  reasons: string;
  line_cents: Int8;
  entry_cents: Int8;
  status: Generated<'open' | 'confirmed' | 'rejected'>;
  decided_by: string | null;
  decided_at: Timestamp | null;
  reason: string | null;
  created_at: Generated<Date>;
}
