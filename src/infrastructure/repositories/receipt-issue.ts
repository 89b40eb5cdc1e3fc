import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import { insertJobsForRows } from '../queue/enqueue-rows.js';
import { MAIL_DELIVERY_QUEUE } from '../queue/queues.js';

/**
 * Which settled donations to receipt: a batch's settlements (those of entries in `positions`, from inclusive, to
 * exclusive, when given), or donations named by id (a collected debit).
 */
export type SettledDonations =
  { batchId: string; positions?: { from: number; to: number } } | { donationIds: string[] };

/** What issues: the issuer row, its minimum, the foundation's time zone, the financial year and the issue time. */
export interface IssueTerms {
  issuerId: string;
  minimumCents: number;
  timeZone: string;
  financialYear: string;
  issuedAt: Date;
  /** Why the messages cannot leave under the settings: they are written held, without delivery jobs. */
  mailHeld: string | null;
}

const source = (settled: SettledDonations): RawBuilder<unknown> => {
  if (!('batchId' in settled))
    return sql`(select id as donation_id, ord from unnest(${settled.donationIds}::uuid[]) with ordinality as x(id, ord))`;
  const { batchId, positions } = settled;
  const within = positions ? sql`and position >= ${positions.from} and position < ${positions.to}` : sql``;
  return sql`(select donation_id, position::bigint as ord from donation_settlements
    where batch_id = ${batchId}::uuid ${within})`;
};

/**
 * Locks the settled donations (shared, in id order) and reads the transaction's clock, and `also` in passing (a
 * scalar subquery: the issuer's id). A reversal locks its donation exclusively: one that committed first is seen by
 * the issue that follows (the net amount is read after this statement), and one that comes after waits for the
 * issue's commit and then finds the receipt to void.
 */
export async function lockSettledDonations<T>(
  trx: Kysely<DB>,
  settled: SettledDonations,
  also: RawBuilder<T>,
): Promise<{ at: Date; also: T }> {
  const { rows } = await sql<{ at: Date; extra: T }>`
    select now() as at, ${also} as extra, (select count(*) from (
      select 1 from donations d where d.id in (select donation_id from ${source(settled)} s) order by d.id for share of d
    ) as locked) as n`.execute(trx);
  return { at: new Date(rows[0]!.at), also: rows[0]!.extra };
}

/**
 * Issues, in one statement, a receipt to every donation of `settled` whose net amount reaches the minimum and that
 * has none in force: numbers allocated as a block from the year's counter (its row locked until commit, so numbers
 * are gapless), one receipt message per receipt in the mail outbox, and one mail-delivery job per message (none when
 * the messages are written held: an instance able to send queues them when it starts). Set-based
 * whatever the count (a batch settles up to 100,000 donations). Returns how many receipts were issued.
 */
export async function issueReceipts(trx: Kysely<DB>, settled: SettledDonations, terms: IssueTerms): Promise<number> {
  const held = terms.mailHeld !== null;
  const { rows } = await sql<{ issued: number; jobs: number }>`
    with c as (
      select d.id as donation_id, d.reference_id, d.partner_id, d.environment,
        case when d.is_live then 'live' else 'sample' end as series,
        d.amount_cents - d.reversed_cents as amount_cents,
        to_char(coalesce(d.transaction_at, d.created_at) at time zone ${terms.timeZone}, 'YYYY-MM-DD') as gift_date,
        coalesce(k.first_name, d.donor_first_name) || ' ' || coalesce(k.last_name, d.donor_last_name) as donor_name,
        case when k.seq is null then d.donor_business_name else k.business_name end as donor_business_name,
        coalesce(k.email, d.donor_email) as donor_email,
        a.name as fundraiser_name, d.fundraiser_id,
        row_number() over (partition by d.is_live order by s.ord, d.id) as n
      from ${source(settled)} s
      join donations d on d.id = s.donation_id
      join accounts a on a.id = d.account_id
      left join lateral (
        select k.seq, k.first_name, k.last_name, k.business_name, k.email
        from donor_corrections k where k.donation_id = d.id order by k.seq desc limit 1
      ) k on true
      where d.amount_cents - d.reversed_cents >= ${terms.minimumCents}
        and not exists (select 1 from receipts r where r.donation_id = d.id and r.voided_at is null)
    ),
    counts as (select series, count(*)::int as total from c group by series),
    counter as (
      insert into receipt_counters (series, financial_year, last_number)
      select series, ${terms.financialYear}, total from counts
      on conflict (series, financial_year)
        do update set last_number = receipt_counters.last_number + excluded.last_number
      returning series, last_number
    ),
    issued as (
      insert into receipts (number, series, financial_year, sequence, issuer_id, donation_id, donation_reference_id,
        partner_id, environment, amount_cents, gift_date, donor_name, donor_business_name, donor_email,
        fundraiser_name, fundraiser_id, issued_at, issue_reason)
      select
        case when c.series = 'sample' then 'SAMPLE-' else '' end || ${terms.financialYear} || '-' ||
          lpad(q.seq::text, greatest(6, length(q.seq::text)), '0'),
        c.series, ${terms.financialYear}, q.seq, ${terms.issuerId}::bigint, c.donation_id, c.reference_id,
        c.partner_id, c.environment, c.amount_cents, c.gift_date, c.donor_name, c.donor_business_name, c.donor_email,
        c.fundraiser_name, c.fundraiser_id, ${terms.issuedAt.toISOString()}::timestamptz, 'settled'
      from c join counts t on t.series = c.series join counter k on k.series = c.series
        cross join lateral (select k.last_number - t.total + c.n as seq) q
      returning id, donor_email, donation_reference_id
    ),
    mail as (
      insert into mail_outbox (kind, recipient, attachments, about, status, last_error)
      select 'receipt', i.donor_email, jsonb_build_array(jsonb_build_object('type', 'receipt', 'id', i.id)),
        'donation:' || i.donation_reference_id, ${held ? 'held' : 'pending'}, ${terms.mailHeld}
      from issued i
      returning id
    ),
    to_send as (select id from mail where ${!held}),
    jobs as (${insertJobsForRows(MAIL_DELIVERY_QUEUE, 'to_send', 'messageId')})
    select (select count(*) from issued)::int as issued, (select count(*) from jobs)::int as jobs`.execute(trx);
  const { issued, jobs } = rows[0]!;
  if (!held && Number(jobs) !== Number(issued)) throw new Error(`job queue ${MAIL_DELIVERY_QUEUE} is not installed`);
  return Number(issued);
}
