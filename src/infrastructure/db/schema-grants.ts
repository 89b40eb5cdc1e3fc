import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** A bigint column: read as a string (pg's int8), written as a number. */
type Cents = ColumnType<string, number | bigint | string, number | bigint | string>;
type CentsDefault = ColumnType<string, number | bigint | string | undefined, number | bigint | string>;
type NullableCents = ColumnType<
  string | null,
  number | bigint | string | null | undefined,
  number | bigint | string | null
>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Kysely's view of the grants to clubs (migration 030). */
export interface GrantTables {
  bsb_directory: BsbDirectoryTable;
  club_contacts: ClubContactsTable;
  club_bank_details: ClubBankDetailsTable;
  grant_rounds: GrantRoundsTable;
  grants: GrantsTable;
  grant_items: GrantItemsTable;
  grant_recoveries: GrantRecoveriesTable;
  rcti_counters: RctiCountersTable;
  grant_acquittals: GrantAcquittalsTable;
}

export interface BsbDirectoryTable {
  bsb: string;
  bank_code: string;
  name: string;
  address: Generated<string>;
  suburb: Generated<string>;
  state: Generated<string>;
  postcode: Generated<string>;
  payments: Generated<string>;
  imported_at: Generated<Date>;
}

export interface ClubContactsTable {
  id: Generated<string>;
  account_id: string;
  role: 'finance' | 'primary';
  name: string;
  email: string;
  created_at: Generated<Date>;
}
export type ClubContact = Selectable<ClubContactsTable>;

export type BankDetailsStatus = 'pending' | 'verified' | 'rejected' | 'superseded';

export interface ClubBankDetailsTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  account_id: string;
  bsb: string;
  account_number: string;
  account_name: string;
  status: ColumnType<BankDetailsStatus, BankDetailsStatus | undefined, BankDetailsStatus>;
  entered_by: string;
  entered_at: Generated<Date>;
  source: 'cli' | 'console' | 'import';
  verified_by: string | null;
  verified_at: NullableTimestamp;
  confirmation: string | null;
  hold_waived: Generated<boolean>;
  rejected_by: string | null;
  rejected_at: NullableTimestamp;
  reject_reason: string | null;
  superseded_at: NullableTimestamp;
}
export type ClubBankDetails = Selectable<ClubBankDetailsTable>;

export type GrantRoundStatus = 'draft' | 'approved' | 'paid' | 'cancelled';
export type GrantBasis = 'settled' | 'funds_received';

export interface GrantRoundsTable {
  id: Generated<string>;
  number: number;
  scheduled_on: string | null;
  cutoff_at: Timestamp;
  basis: GrantBasis;
  fee_basis_points: number;
  minimum_cents: Cents;
  status: ColumnType<GrantRoundStatus, GrantRoundStatus | undefined, GrantRoundStatus>;
  drafted_by: string;
  drafted_at: Generated<Date>;
  reviewed_by: string | null;
  reviewed_at: NullableTimestamp;
  approved_by: string | null;
  approved_at: NullableTimestamp;
  cancelled_by: string | null;
  cancelled_at: NullableTimestamp;
  cancel_reason: string | null;
  total_cents: CentsDefault;
  grant_count: Generated<number>;
  held_count: Generated<number>;
  aba_file: Buffer | null;
  aba_sha256: string | null;
  paid_by: string | null;
  paid_at: NullableTimestamp;
  bank_line_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  bank_confirmed_at: NullableTimestamp;
}
export type GrantRound = Selectable<GrantRoundsTable>;

export type GrantStatus = 'payable' | 'held' | 'paid' | 'returned' | 'cancelled';
export type GrantHoldReason =
  | 'no_bank_details'
  | 'bank_details_on_hold'
  | 'acquittal_overdue'
  | 'under_minimum'
  | 'negative_balance'
  | 'payment_returned';

export interface GrantsTable {
  id: Generated<string>;
  round_id: string;
  account_id: string;
  status: GrantStatus;
  hold_reason: GrantHoldReason | null;
  donations_cents: Cents;
  recovered_cents: CentsDefault;
  reissued_cents: CentsDefault;
  fee_cents: CentsDefault;
  amount_cents: Cents;
  donation_count: Generated<number>;
  bank_details_id: string | null;
  bsb: string | null;
  account_number: string | null;
  account_name: string | null;
  lodgement_reference: string | null;
  bank_line_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  returned_at: NullableTimestamp;
  returned_by: string | null;
  return_reason: string | null;
  reissued_in: string | null;
  rcti_number: string | null;
  advised_at: NullableTimestamp;
  created_at: Generated<Date>;
  /** Migration 036: the receipts' issuer row the advice was issued under, and whether it was a sample. */
  advice_issuer_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  advice_sample: Generated<boolean>;
}
export type Grant = Selectable<GrantsTable>;

export interface GrantItemsTable {
  donation_id: string;
  grant_id: string;
  amount_cents: Cents;
  /** Migration 033: the newest reversal already netted off `amount_cents`. */
  reversal_seq: CentsDefault;
}

export interface GrantRecoveriesTable {
  reversal_id: string;
  grant_id: string;
  amount_cents: Cents;
}

export interface RctiCountersTable {
  series: string;
  next: Cents;
}

export interface GrantAcquittalsTable {
  grant_id: string;
  account_id: string;
  due_on: string;
  reminded_at: NullableTimestamp;
  declared_by: string | null;
  declared_on: string | null;
  amount_spent_cents: NullableCents;
  purpose: string | null;
  recorded_by: string | null;
  recorded_at: NullableTimestamp;
}
