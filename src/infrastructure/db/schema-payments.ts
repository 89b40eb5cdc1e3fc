import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the payment providers' tables: Stripe's customers and events, the sandbox simulator's intents. */
export interface PaymentTables {
  stripe_customers: StripeCustomersTable;
  stripe_events: StripeEventsTable;
  simulator_setup_intents: SimulatorSetupIntentsTable;
}

export interface StripeCustomersTable {
  partner_id: string;
  account_id: string;
  customer_id: string;
  created_at: Generated<Date>;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  created: ColumnType<string, number, number>;
  received_at: Generated<Date>;
}

export interface SimulatorSetupIntentsTable {
  id: string;
  client_secret: string;
  idempotency_key: string;
  status: string;
  customer_email: string;
  customer_name: string;
  last_error: string | null;
  bsb: string | null;
  account_last4: string | null;
  /** Migration 021: the sandbox test account number (it decides what the mandate's debits do). */
  account_number: ColumnType<string | null, string | null | undefined, string | null>;
  accepted_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
