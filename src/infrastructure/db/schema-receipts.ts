import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.js';

/** Kysely's view of the receipts register and the mail outbox (migration 023, docs/receipts.md). */
export interface ReceiptTables {
  mail_outbox: MailOutboxTable;
  receipt_issuers: ReceiptIssuersTable;
  receipt_counters: ReceiptCountersTable;
  receipts: ReceiptsTable;
  donor_corrections: DonorCorrectionsTable;
  receipt_statements: ReceiptStatementsTable;
}

export interface MailOutboxTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  kind: string;
  recipient: string;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  attachments: ColumnType<MailAttachmentRef[], string | undefined, string>;
  about: string | null;
  status: Generated<'pending' | 'held' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  delivered_to: string | null;
  sent_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type MailMessage = Selectable<MailOutboxTable>;

/** What a message attaches, by reference: rendered when it is sent. */
export interface MailAttachmentRef {
  type: 'receipt' | 'statement' | 'remittance-exceptions' | 'grant-advice';
  id: string;
}

export interface ReceiptIssuersTable {
  id: Generated<string>;
  legal_name: string;
  abn: string;
  dgr_statement: string;
  minimum_cents: ColumnType<string, number, number>;
  time_zone: string;
}

export interface ReceiptCountersTable {
  series: string;
  financial_year: string;
  last_number: number;
}

export interface ReceiptsTable {
  id: Generated<string>;
  number: string;
  series: 'live' | 'sample';
  financial_year: string;
  sequence: number;
  issuer_id: string;
  donation_id: string;
  donation_reference_id: string;
  partner_id: string;
  environment: string;
  amount_cents: ColumnType<string, number, never>;
  gift_date: string;
  donor_name: string;
  donor_business_name: string | null;
  donor_email: string;
  fundraiser_name: string;
  fundraiser_id: string;
  issued_at: Timestamp;
  issue_reason: string;
  replaces_id: string | null;
  voided_at: Timestamp | null;
  void_reason: string | null;
  voided_by: string | null;
}
export type ReceiptRow = Selectable<ReceiptsTable>;

export interface DonorCorrectionsTable {
  seq: Generated<string>;
  donation_id: string;
  first_name: string;
  last_name: string;
  business_name: string | null;
  email: string;
  reason: string;
  corrected_by: string;
  corrected_at: Generated<Date>;
}

export interface ReceiptStatementsTable {
  id: Generated<string>;
  series: 'live' | 'sample';
  financial_year: string;
  email_key: string;
  donor_email: string;
  donor_name: string;
  issuer_id: string;
  items: ColumnType<StatementItem[], string, never>;
  total_cents: ColumnType<string, number, never>;
  issued_at: Generated<Date>;
  requested_by: string;
}
export type StatementRow = Selectable<ReceiptStatementsTable>;

/** One receipt as a statement lists it. */
export interface StatementItem {
  number: string;
  giftDate: string;
  amountCents: number;
  fundraiser: string;
}
