import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the tables of migration 015 (the operator console), kept beside schema.ts. */

/** Migration 015: people who sign in to the console (created with `fundraiser-admin operators`). */
export interface ConsoleOperatorsTable {
  id: Generated<string>;
  email: string;
  role: 'admin' | 'viewer';
  password_hash: string;
  status: Generated<'active' | 'disabled'>;
  failed_logins: Generated<number>;
  locked_until: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ConsoleSessionsTable {
  token_hash: string;
  operator_id: string;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface RequestRejectionsTable {
  day: ColumnType<string, string, string>;
  kind: 'authentication' | 'quota';
  partner_id: string;
  count: ColumnType<string, number, number>;
}

/** Migration 047: donations per UTC day, partner and channel, kept by a trigger on every insert of donations. */
export interface DailyDonationsTable {
  day: ColumnType<string, string, string>;
  partner_id: string;
  channel: string;
  count: ColumnType<string, number, number>;
  total_cents: ColumnType<string, number, number>;
}

/** Migration 047: reversals per UTC day, kept by a trigger on every insert of donation_reversals. */
export interface DailyReversalsTable {
  day: ColumnType<string, string, string>;
  count: ColumnType<string, number, number>;
  total_cents: ColumnType<string, number, number>;
}
