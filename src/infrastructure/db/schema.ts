import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { EpochSeconds, Json, Timestamp } from './column-types.js';
import type { BankTables } from './schema-bank.js';
import type { GrantTables } from './schema-grants.js';
import type { PaymentTables } from './schema-payments.js';
import type { RecurringTables } from './schema-recurring.js';
import type { PartnerContactTables } from './schema-partner-contacts.js';
import type { RequestLogTables } from './schema-request-log.js';
import type { ReceiptTables } from './schema-receipts.js';
import type { PortalTables } from './schema-portal.js';
import type { ReversalTables } from './schema-reversals.js';
import type {
  DonationSettlementsTable,
  RemittanceBankReferencesTable,
  RemittanceBatchesTable,
  RemittanceEntriesTable,
} from './schema-reconciliation.js';
import type { WebhookTables } from './webhook-tables.js';
import type {
  ConsoleOperatorsTable,
  ConsoleSessionsTable,
  DailyDonationsTable,
  DailyReversalsTable,
  RequestRejectionsTable,
} from './schema-console.js';

/** Kysely's view of the tables created by the SQL migrations beside this file. */

export interface ChannelsTable {
  name: string;
  created_at: Generated<Date>;
}

export interface PartnersTable {
  id: Generated<string>;
  name: string;
  status: Generated<'active' | 'suspended'>;
  quota_limit: number;
  quota_window_seconds: number;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PartnerChannelsTable {
  partner_id: string;
  channel: string;
}

export interface CredentialsTable {
  client_id: string;
  partner_id: string;
  environment: string;
  secret_hash: string;
  created_at: Generated<Date>;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  replaced_by: string | null;
  last_used_at: Timestamp | null;
}

export interface AccountsTable {
  id: Generated<string>;
  member_number: string;
  crm_id: string | null;
  crm_id15: ColumnType<string | null, never, never>;
  name: string;
  abn: string | null;
  /** Migration 030: a club registered for GST gets a recipient-created tax invoice with each grant. */
  gst_registered: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ProductsTable {
  account_id: string;
  channel: string;
  description: Generated<string>;
  status: string;
  logo: string | null;
  cover_image: string | null;
  donation_amounts_cents: ColumnType<number[], number[] | undefined, number[]>;
  story: string | null;
  campaigns: ColumnType<Record<string, unknown>, string | undefined, string>;
  product_enrollment_id: string | null;
  enrollment_status: Generated<string>;
  updated_at: Generated<Date>;
}

export interface DonationsTable {
  id: Generated<string>;
  reference_id: string;
  partner_id: string;
  environment: string;
  is_live: boolean;
  channel: string;
  account_id: string;
  fundraiser_id: string;
  fundraiser_account_name: string | null;
  product_enrollment_id: string | null;
  donor_email: string;
  donor_verified_email: string | null;
  donor_first_name: string;
  donor_last_name: string;
  donor_mobile: string | null;
  donor_business_name: string | null;
  address_street: string | null;
  address_city: string | null;
  address_state: string | null;
  address_postal_code: string | null;
  address_country: string | null;
  transaction_id: string | null;
  transaction_date_raw: string | null;
  transaction_at: Timestamp | null;
  amount_cents: number | null;
  source_metadata: Json | null;
  request_hash: string;
  correlation_id: string;
  created_at: Generated<Date>;
  /** Migration 021: `foundation` for a donation collected by a debit (docs/recurring.md), and that debit. */
  collected_by: Generated<'partner' | 'foundation'>;
  debit_id: string | null;
  /** Migration 022: what reversals took back; the net amount is amount_cents less this. */
  reversed_cents: ColumnType<string | number, never, number>;
  /** Migration 030: the donor agreed to be named to the club in its grant's remittance advice. */
  donor_name_shared: Generated<boolean>;
}

export interface IdempotencyKeysTable {
  partner_id: string;
  key: string;
  operation: string;
  request_hash: string;
  response_status: number | null;
  response_body: Json | null;
  created_at: Generated<Date>;
}

export interface MandatesTable {
  id: string;
  partner_id: string;
  environment: string;
  channel: string;
  account_id: string;
  fundraiser_id: string;
  fundraiser_first_name: string;
  fundraiser_last_name: string;
  fundraiser_email: string;
  provider: string;
  status: string;
  accepted_at: Timestamp | null;
  payment_method: string | null;
  url: string | null;
  correlation_id: string;
  /** Null for mandates created before migration 010. */
  provider_idempotency_key: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Stripe only (migration 020): the Mandate object behind the setup intent and its status. */
  provider_mandate_id: ColumnType<string | null, string | null | undefined, string | null>;
  mandate_status: ColumnType<string | null, string | null | undefined, string | null>;
  /** Creation time (epoch seconds) of the newest provider event applied, per kind: the ordering guard. */
  intent_event_created: EpochSeconds;
  mandate_event_created: EpochSeconds;
  /** Migration 021: what a debit needs of the provider (Stripe's customer and payment method). */
  provider_customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  provider_payment_method_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AuthFailureCountersTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface QuotaCountersTable {
  partner_id: string;
  window_start: Timestamp;
  count: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Generated<Date>;
  actor: string;
  action: string;
  subject: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface DB
  extends
    WebhookTables,
    PaymentTables,
    RecurringTables,
    ReversalTables,
    BankTables,
    GrantTables,
    PartnerContactTables,
    RequestLogTables,
    ReceiptTables,
    PortalTables {
  channels: ChannelsTable;
  partners: PartnersTable;
  partner_channels: PartnerChannelsTable;
  credentials: CredentialsTable;
  accounts: AccountsTable;
  products: ProductsTable;
  donations: DonationsTable;
  idempotency_keys: IdempotencyKeysTable;
  mandates: MandatesTable;
  auth_failure_counters: AuthFailureCountersTable;
  remittance_batches: RemittanceBatchesTable;
  remittance_entries: RemittanceEntriesTable;
  remittance_bank_references: RemittanceBankReferencesTable;
  donation_settlements: DonationSettlementsTable;
  quota_counters: QuotaCountersTable;
  audit_log: AuditLogTable;
  console_operators: ConsoleOperatorsTable;
  console_sessions: ConsoleSessionsTable;
  request_rejections: RequestRejectionsTable;
  daily_donations: DailyDonationsTable;
  daily_reversals: DailyReversalsTable;
}

export type Partner = Selectable<PartnersTable>;
/** An account as the partner API reads it; the grants' GST flag is read where grants are. */
export type Account = Omit<Selectable<AccountsTable>, 'gst_registered'>;
export type Product = Selectable<ProductsTable>;
export type NewDonation = Insertable<DonationsTable>;
export type Mandate = Selectable<MandatesTable>;
