import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The statements that replace personal details with nothing (docs/privacy.md, "De-identification"). Every one skips a
 * row already de-identified (`deidentified_at`), so a batch done twice, by a retry or by two instances, changes
 * nothing the second time; what is kept (amounts, dates, partner, fundraiser, references, receipt numbers) is never
 * touched, so totals and registers add up as before.
 */

/** A row's key as PostgreSQL writes it: text, so no microsecond is lost on the way through JavaScript. */
export interface WalkCursor {
  afterAt: string | null;
  afterId: string | null;
}

export interface DonationBatch {
  /** Rows looked at (held ones included): fewer than asked means the walk is over. */
  seen: number;
  /** The key of the last row looked at: where the next batch starts. */
  last: WalkCursor;
  donations: number;
  receipts: number;
  corrections: number;
}

// Donations' ids are uuids, mandates' text: the comparison is in the column's own order, the order of its index.
const afterCursor = (cursor: WalkCursor, idType: 'uuid' | 'text') =>
  cursor.afterAt === null
    ? sql`true`
    : sql`(created_at, id) > (${cursor.afterAt}::timestamptz, ${cursor.afterId}::${sql.raw(idType)})`;

/** The same SET lists wherever a donation, its receipts or its corrections are de-identified. */
export const DONATION_BLANKS = sql`donor_email = '', donor_verified_email = null, donor_first_name = '',
  donor_last_name = '', donor_mobile = null, donor_business_name = null, address_street = null, address_city = null,
  address_state = null, address_postal_code = case when address_postal_code is null then null else '' end,
  address_country = null, source_metadata = null`;
export const RECEIPT_BLANKS = sql`donor_name = '', donor_business_name = null, donor_email = ''`;
export const CORRECTION_BLANKS = sql`first_name = '', last_name = '', business_name = null, email = ''`;
export const MANDATE_BLANKS = sql`fundraiser_first_name = '', fundraiser_last_name = '', fundraiser_email = ''`;

/**
 * The next `limit` donations created before `cutoff`, in (created_at, id) order after `cursor`, not yet
 * de-identified: each is de-identified with its receipts and corrections unless one of its receipts was issued at or
 * after `holdFrom` (inside its statutory years).
 */
export async function deidentifyDonationBatch(
  db: Kysely<DB>,
  args: { cursor: WalkCursor; cutoff: Date; holdFrom: Date; limit: number; now: Date },
): Promise<DonationBatch> {
  const { rows } = await sql<{
    seen: number;
    last_at: string | null;
    last_id: string | null;
    donations: number;
    receipts: number;
    corrections: number;
  }>`
    with batch as (
      select id, created_at from donations
      where deidentified_at is null and created_at < ${args.cutoff} and ${afterCursor(args.cursor, 'uuid')}
      order by created_at, id limit ${args.limit}
    ), eligible as (
      select b.id from batch b
      where not exists (select 1 from receipts r where r.donation_id = b.id and r.issued_at >= ${args.holdFrom})
    ), donations_done as (
      update donations d set ${DONATION_BLANKS}, deidentified_at = ${args.now}
      from eligible e where d.id = e.id and d.deidentified_at is null
      returning d.id
    ), receipts_done as (
      update receipts r set ${RECEIPT_BLANKS}, deidentified_at = ${args.now}
      from donations_done d where r.donation_id = d.id and r.deidentified_at is null
      returning r.id
    ), corrections_done as (
      update donor_corrections c set ${CORRECTION_BLANKS}, deidentified_at = ${args.now}
      from donations_done d where c.donation_id = d.id and c.deidentified_at is null
      returning c.seq
    ), last as (
      select created_at::text as created_at, id::text as id from batch order by created_at desc, id desc limit 1
    )
    select (select count(*)::int from batch) as seen,
           (select created_at from last) as last_at, (select id from last) as last_id,
           (select count(*)::int from donations_done) as donations,
           (select count(*)::int from receipts_done) as receipts,
           (select count(*)::int from corrections_done) as corrections`.execute(db);
  const row = rows[0]!;
  return {
    seen: row.seen,
    last: { afterAt: row.last_at, afterId: row.last_id },
    donations: row.donations,
    receipts: row.receipts,
    corrections: row.corrections,
  };
}

export interface MandateBatch {
  seen: number;
  last: WalkCursor;
  mandates: number;
}

/**
 * The next `limit` mandates created before `cutoff` after `cursor`: each is de-identified when nothing happened to
 * it since the cutoff (no change, no debit) and no plan on it is live or changed since.
 */
export async function deidentifyMandateBatch(
  db: Kysely<DB>,
  args: { cursor: WalkCursor; cutoff: Date; limit: number; now: Date },
): Promise<MandateBatch> {
  const { rows } = await sql<{ seen: number; last_at: string | null; last_id: string | null; mandates: number }>`
    with batch as (
      select id, created_at, updated_at from mandates
      where deidentified_at is null and created_at < ${args.cutoff} and ${afterCursor(args.cursor, 'text')}
      order by created_at, id limit ${args.limit}
    ), eligible as (
      select b.id from batch b
      where b.updated_at < ${args.cutoff}
        and not exists (select 1 from recurring_plans p where p.mandate_id = b.id
                        and (p.status in ('active', 'past_due') or p.updated_at >= ${args.cutoff}))
        and not exists (select 1 from debits x where x.mandate_id = b.id and x.updated_at >= ${args.cutoff})
    ), mandates_done as (
      update mandates m set ${MANDATE_BLANKS}, deidentified_at = ${args.now}
      from eligible e where m.id = e.id and m.deidentified_at is null
      returning m.id
    ), last as (
      select created_at::text as created_at, id::text as id from batch order by created_at desc, id desc limit 1
    )
    select (select count(*)::int from batch) as seen,
           (select created_at from last) as last_at, (select id from last) as last_id,
           (select count(*)::int from mandates_done) as mandates`.execute(db);
  const row = rows[0]!;
  return {
    seen: row.seen,
    last: { afterAt: row.last_at, afterId: row.last_id },
    mandates: row.mandates,
  };
}

/** Bodies of messages sent (or held, or failed for good) before `cutoff`; pending messages are never touched. */
export async function purgeMailBodies(db: Kysely<DB>, cutoff: Date, limit: number, now: Date): Promise<number> {
  const result = await sql`
    update mail_outbox set text_body = null, html_body = null, last_error = null, bodies_purged_at = ${now}
    where id in (select id from mail_outbox where bodies_purged_at is null and created_at < ${cutoff}
                 and status <> 'pending' limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Recipients of messages written before `cutoff` (the donor-data retention), once they are no longer pending. */
export async function deidentifyMailRecipients(db: Kysely<DB>, cutoff: Date, limit: number, now: Date) {
  const result = await sql`
    update mail_outbox set recipient = '', delivered_to = null, deidentified_at = ${now}
    where id in (select id from mail_outbox where deidentified_at is null and created_at < ${cutoff}
                 and status <> 'pending' limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** End-of-year statements issued before both `cutoff` and `holdFrom`. */
export async function deidentifyStatements(db: Kysely<DB>, before: Date, limit: number, now: Date) {
  const result = await sql`
    update receipt_statements set donor_email = '', donor_name = '', email_key = 'deidentified:' || id::text,
      deidentified_at = ${now}
    where id in (select id from receipt_statements where deidentified_at is null and issued_at < ${before}
                 limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
