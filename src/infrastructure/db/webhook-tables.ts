import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the webhook tables of migration 013 (partner webhooks and the event log). */

export interface WebhookEndpointsTable {
  id: string;
  partner_id: string;
  environment: string;
  url: string;
  events: string[];
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Timestamp | null;
  status: Generated<'enabled' | 'disabled'>;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  failing_since: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: Timestamp | null;
}

export interface WebhookEventsTable {
  id: string;
  partner_id: string;
  environment: string;
  sequence: ColumnType<number, number, number>;
  type: string;
  data: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

export interface WebhookEventSequencesTable {
  partner_id: string;
  environment: string;
  last_sequence: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  failure_reason: string | null;
  replay_of: string | null;
  created_at: Generated<Date>;
  finished_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  attempt: number;
  attempted_at: Timestamp;
  response_status: number | null;
  latency_ms: number;
  response_snippet: string | null;
  error: string | null;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_event_sequences: WebhookEventSequencesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
