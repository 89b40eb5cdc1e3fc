import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the recurring donations' tables (migration 021, docs/recurring.md). */
export interface RecurringTables {
  recurring_plans: RecurringPlansTable;
  debits: DebitsTable;
  sandbox_clocks: SandboxClocksTable;
  simulator_payments: SimulatorPaymentsTable;
}

/** A bigint column of cents: read as a string by pg's int8 parser (Number() it), written as a number. */
type Cents = ColumnType<string | number, number, number>;

export interface RecurringPlansTable {
  id: string;
  seq: ColumnType<string, never, never>;
  partner_id: string;
  environment: string;
  is_live: boolean;
  mandate_id: string;
  channel: string;
  account_id: string;
  fundraiser_id: string;
  amount_cents: Cents;
  frequency: string;
  start_date: string;
  end_date: string | null;
  max_debits: number | null;
  partner_reference: string | null;
  status: Generated<string>;
  next_due_date: string | null;
  debits_scheduled: Generated<number>;
  failed_in_a_row: Generated<number>;
  canceled_reason: string | null;
  canceled_at: Timestamp | null;
  request_hash: string;
  correlation_id: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type RecurringPlan = Selectable<RecurringPlansTable>;

export interface DebitsTable {
  id: string;
  partner_id: string;
  environment: string;
  is_live: boolean;
  mandate_id: string;
  plan_id: string | null;
  sequence: number | null;
  transaction_id: string | null;
  amount_cents: Cents;
  due_date: string;
  status: Generated<string>;
  attempts: Generated<number>;
  queued_attempt: Generated<number>;
  next_attempt_on: string | null;
  failure_code: string | null;
  failure_message: string | null;
  provider_payment_id: string | null;
  provider_event_created: ColumnType<string | null, number | null | undefined, number | null>;
  donation_id: string | null;
  disputed_at: Timestamp | null;
  dispute_reason: string | null;
  request_hash: string | null;
  correlation_id: string;
  submitted_at: Timestamp | null;
  settled_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type Debit = Selectable<DebitsTable>;

export interface SandboxClocksTable {
  partner_id: string;
  offset_seconds: ColumnType<string | number, number, number>;
  updated_at: Generated<Date>;
}

export interface SimulatorPaymentsTable {
  id: string;
  idempotency_key: string;
  debit_id: string;
  partner_id: string;
  amount_cents: Cents;
  account_number: string;
  attempt: number;
  outcome: string;
  failure_code: string | null;
  settles_at: Timestamp;
  settled: Generated<boolean>;
  created_at: Generated<Date>;
}
