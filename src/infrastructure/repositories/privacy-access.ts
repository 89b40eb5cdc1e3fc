import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Everything held about one e-mail address, for an access request (docs/privacy.md, "An access request"): read as
 * stored, personal details included, for the person themselves. Amounts are cents as text (bigint).
 */
type Row = Record<string, unknown>;

const among = (ids: string[]) => (ids.length === 0 ? sql`(null)` : sql`(${sql.join(ids)})`);

export async function donationsOfEmail(db: Kysely<DB>, key: string): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select id, reference_id, created_at, channel, fundraiser_id, fundraiser_account_name, amount_cents::text,
           reversed_cents::text, transaction_id, transaction_at, collected_by, debit_id, donor_email,
           donor_verified_email, donor_first_name, donor_last_name, donor_mobile, donor_business_name,
           address_street, address_city, address_state, address_postal_code, address_country, donor_name_shared,
           source_metadata
    from donations
    where lower(donor_email) = ${key}
       or id in (select donation_id from donor_corrections where lower(email) = ${key})
    order by created_at, id`.execute(db);
  return rows;
}

export async function correctionsOf(db: Kysely<DB>, donationIds: string[]): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select c.seq::text as seq, d.reference_id as donation_reference_id, c.first_name, c.last_name, c.business_name,
           c.email, c.reason, c.corrected_at
    from donor_corrections c join donations d on d.id = c.donation_id
    where c.donation_id in ${among(donationIds)} order by c.seq`.execute(db);
  return rows;
}

export async function receiptsOfDonations(db: Kysely<DB>, donationIds: string[]): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select id, number, series, financial_year, donation_reference_id, amount_cents::text, gift_date, donor_name,
           donor_business_name, donor_email, fundraiser_name, fundraiser_id, issued_at, issue_reason, voided_at,
           void_reason
    from receipts where donation_id in ${among(donationIds)} order by issued_at, number`.execute(db);
  return rows;
}

export async function mandatesOfEmail(db: Kysely<DB>, key: string): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select id, created_at, channel, fundraiser_id, fundraiser_first_name, fundraiser_last_name, fundraiser_email,
           provider, status, accepted_at, payment_method
    from mandates where lower(fundraiser_email) = ${key} order by created_at, id`.execute(db);
  return rows;
}

export async function plansOf(db: Kysely<DB>, mandateIds: string[]): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select id, mandate_id, fundraiser_id, amount_cents::text, frequency, start_date, end_date, status,
           canceled_reason, created_at
    from recurring_plans where mandate_id in ${among(mandateIds)} order by seq`.execute(db);
  return rows;
}

export async function debitsOf(db: Kysely<DB>, mandateIds: string[]): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select x.id, x.mandate_id, x.plan_id, x.amount_cents::text, x.due_date, x.status, x.attempts, x.failure_message,
           x.settled_at, d.reference_id as donation_reference_id
    from debits x left join donations d on d.id = x.donation_id
    where x.mandate_id in ${among(mandateIds)} order by x.created_at, x.id`.execute(db);
  return rows;
}

export async function statementsOfEmail(db: Kysely<DB>, key: string): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select id, financial_year, donor_email, donor_name, items, total_cents::text, issued_at
    from receipt_statements where lower(donor_email) = ${key} order by issued_at`.execute(db);
  return rows;
}

export async function mailToEmail(db: Kysely<DB>, key: string): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select kind, recipient, subject, text_body, status, about, created_at, sent_at
    from mail_outbox where lower(recipient) = ${key} order by seq`.execute(db);
  return rows;
}

/** What operators did to these records, without who (subjects are receipt numbers, reference ids, mandate, plan and debit ids). */
export async function auditOfSubjects(db: Kysely<DB>, subjects: string[]): Promise<Row[]> {
  const { rows } = await sql<Row>`
    select at, action, subject, details from audit_log where subject in ${among(subjects)}
    order by id`.execute(db);
  return rows;
}
