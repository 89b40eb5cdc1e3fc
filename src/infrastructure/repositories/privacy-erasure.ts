import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import { CORRECTION_BLANKS, DONATION_BLANKS, MANDATE_BLANKS, RECEIPT_BLANKS } from './privacy-deidentify.js';

/** What the service holds about one e-mail address, still identified (docs/privacy.md, "An erasure request"). */
export interface Holdings {
  donations: { id: string; referenceId: string; partnerId: string; environment: string }[];
  /** Receipts of those donations, with when each was issued (its statutory hold runs from there). */
  receipts: { id: string; number: string; donationId: string; issuedAt: Date }[];
  mandates: { id: string; partnerId: string; environment: string; livePlans: number }[];
  statements: { id: string; financialYear: string; issuedAt: Date }[];
  /** Messages to the address no longer waiting to be sent. */
  mail: { id: string }[];
}

/** The rows an erasure changed: what the erasure log keeps, and what a replay after a restore changes again. */
export interface ErasedRefs {
  donations: string[];
  mandates: string[];
  statements: string[];
  mail: string[];
}

export async function findHoldings(db: Kysely<DB>, email: string): Promise<Holdings> {
  const key = email.trim().toLowerCase();
  const donations = await sql<{ id: string; reference_id: string; partner_id: string; environment: string }>`
    select id, reference_id, partner_id, environment from donations
    where deidentified_at is null
      and (lower(donor_email) = ${key}
           or id in (select donation_id from donor_corrections where lower(email) = ${key} and deidentified_at is null))
    order by created_at, id`.execute(db);
  const ids = donations.rows.map((d) => d.id);
  const receipts =
    ids.length === 0
      ? { rows: [] }
      : await sql<{ id: string; number: string; donation_id: string; issued_at: Date }>`
          select id, number, donation_id, issued_at from receipts where donation_id in (${sql.join(ids)})
          order by issued_at, number`.execute(db);
  const mandates = await sql<{ id: string; partner_id: string; environment: string; live: number }>`
    select m.id, m.partner_id, m.environment,
           (select count(*)::int from recurring_plans p where p.mandate_id = m.id
              and p.status in ('active', 'past_due')) as live
    from mandates m where m.deidentified_at is null and lower(m.fundraiser_email) = ${key}
    order by m.created_at, m.id`.execute(db);
  const statements = await sql<{ id: string; financial_year: string; issued_at: Date }>`
    select id, financial_year, issued_at from receipt_statements
    where deidentified_at is null and lower(donor_email) = ${key} order by issued_at`.execute(db);
  const mail = await sql<{ id: string }>`
    select id from mail_outbox where deidentified_at is null and lower(recipient) = ${key} and status <> 'pending'
    order by seq`.execute(db);
  return {
    donations: donations.rows.map((d) => ({
      id: d.id,
      referenceId: d.reference_id,
      partnerId: d.partner_id,
      environment: d.environment,
    })),
    receipts: receipts.rows.map((r) => ({
      id: r.id,
      number: r.number,
      donationId: r.donation_id,
      issuedAt: new Date(r.issued_at),
    })),
    mandates: mandates.rows.map((m) => ({
      id: m.id,
      partnerId: m.partner_id,
      environment: m.environment,
      livePlans: m.live,
    })),
    statements: statements.rows.map((s) => ({
      id: s.id,
      financialYear: s.financial_year,
      issuedAt: new Date(s.issued_at),
    })),
    mail: mail.rows,
  };
}

const among = (ids: string[]): RawBuilder<unknown> => (ids.length === 0 ? sql`false` : sql`in (${sql.join(ids)})`);

/**
 * De-identifies the rows named (skipping any already de-identified): donations with their receipts and corrections,
 * mandates, statements, and messages (recipient and bodies). Returns how many rows changed.
 */
export async function eraseRows(db: Kysely<DB>, refs: ErasedRefs, now: Date): Promise<number> {
  let changed = 0;
  const run = async (statement: RawBuilder<unknown>) => {
    changed += Number((await statement.execute(db)).numAffectedRows ?? 0);
  };
  const donationIn = refs.donations.length === 0 ? sql`false` : sql`donation_id ${among(refs.donations)}`;
  const idIn = (ids: string[]) => (ids.length === 0 ? sql`false` : sql`id ${among(ids)}`);
  await run(sql`update donations set ${DONATION_BLANKS}, deidentified_at = ${now}
                where ${idIn(refs.donations)} and deidentified_at is null`);
  await run(sql`update receipts set ${RECEIPT_BLANKS}, deidentified_at = ${now}
                where ${donationIn} and deidentified_at is null`);
  await run(sql`update donor_corrections set ${CORRECTION_BLANKS}, deidentified_at = ${now}
                where ${donationIn} and deidentified_at is null`);
  await run(sql`update mandates set ${MANDATE_BLANKS}, deidentified_at = ${now}
                where ${idIn(refs.mandates)} and deidentified_at is null`);
  await run(sql`update receipt_statements set donor_email = '', donor_name = '',
                  email_key = 'deidentified:' || id::text, deidentified_at = ${now}
                where ${idIn(refs.statements)} and deidentified_at is null`);
  await run(sql`update mail_outbox set recipient = '', delivered_to = null, text_body = null, html_body = null,
                  last_error = null, deidentified_at = ${now}, bodies_purged_at = coalesce(bodies_purged_at, ${now})
                where ${idIn(refs.mail)} and deidentified_at is null`);
  return changed;
}
