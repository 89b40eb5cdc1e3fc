import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { StatementRow } from '../db/schema-receipts.js';
import { insertJobsForRows } from '../queue/enqueue-rows.js';
import { MAIL_DELIVERY_QUEUE } from '../queue/queues.js';

export interface StatementRun {
  series: string;
  year: string;
  /** The year's first and last calendar dates: gifts between them are on its statements. */
  first: string;
  last: string;
  email?: string;
  issuerId: string;
  requestedBy: string;
}

/**
 * Issues the missing statements of a year, one per donor e-mail (any case) with a receipt in force for a gift of
 * that year, each with its message and delivery job: one statement, set-based. Returns how many were issued.
 */
export async function issueStatements(trx: Kysely<DB>, run: StatementRun): Promise<number> {
  const { rows } = await sql<{ issued: number; jobs: number }>`
    with g as (
      select lower(r.donor_email) as email_key,
        (array_agg(r.donor_email order by r.issued_at desc))[1] as donor_email,
        (array_agg(coalesce(r.donor_business_name, r.donor_name) order by r.issued_at desc))[1] as donor_name,
        jsonb_agg(jsonb_build_object('number', r.number, 'giftDate', r.gift_date, 'amountCents', r.amount_cents,
          'fundraiser', r.fundraiser_name) order by r.gift_date, r.number) as items,
        sum(r.amount_cents) as total
      from receipts r
      where r.series = ${run.series} and r.voided_at is null and r.gift_date between ${run.first} and ${run.last}
        ${run.email ? sql`and lower(r.donor_email) = ${run.email.toLowerCase()}` : sql``}
      group by lower(r.donor_email)
    ),
    ins as (
      insert into receipt_statements (series, financial_year, email_key, donor_email, donor_name, issuer_id, items,
        total_cents, requested_by)
      select ${run.series}, ${run.year}, email_key, donor_email, donor_name, ${run.issuerId}::bigint, items, total,
        ${run.requestedBy}
      from g
      on conflict (series, financial_year, email_key) do nothing
      returning id, donor_email
    ),
    mail as (
      insert into mail_outbox (kind, recipient, attachments, about)
      select 'receipt-statement', donor_email, jsonb_build_array(jsonb_build_object('type', 'statement', 'id', id)),
        'statement:' || id
      from ins
      returning id
    ),
    jobs as (${insertJobsForRows(MAIL_DELIVERY_QUEUE, 'mail', 'messageId')})
    select (select count(*) from ins)::int as issued, (select count(*) from jobs)::int as jobs`.execute(trx);
  const { issued, jobs } = rows[0]!;
  if (Number(jobs) !== Number(issued)) throw new Error(`job queue ${MAIL_DELIVERY_QUEUE} is not installed`);
  return Number(issued);
}

export function statementById(db: Kysely<DB>, id: string): Promise<StatementRow | undefined> {
  return db.selectFrom('receipt_statements').selectAll().where('id', '=', id).executeTakeFirst();
}

export function statementOf(
  db: Kysely<DB>,
  key: { series: string; year: string; email: string },
): Promise<StatementRow | undefined> {
  return db
    .selectFrom('receipt_statements')
    .selectAll()
    .where('series', '=', key.series as 'live' | 'sample')
    .where('financial_year', '=', key.year)
    .where('email_key', '=', key.email.toLowerCase())
    .executeTakeFirst();
}
