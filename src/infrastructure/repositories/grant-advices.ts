import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import { insertJobsForRows } from '../queue/enqueue-rows.js';
import { MAIL_DELIVERY_QUEUE } from '../queue/queues.js';

/** Which paid grants to advise: a round's, grants named by id, or every one waiting for a finance contact. */
export type AdviceScope = { roundId: string } | { grantIds: string[] } | { waiting: true };

const inScope = (scope: AdviceScope): RawBuilder<unknown> => {
  if ('roundId' in scope) return sql`g.round_id = ${scope.roundId}::uuid`;
  return 'grantIds' in scope ? sql`g.id = any(${scope.grantIds}::uuid[])` : sql`true`;
};

/** A paid grant whose advice is due now: its club has a finance contact to send it to. */
export interface GrantToAdvise {
  id: string;
  gst_registered: boolean;
}

/**
 * The paid grants of `scope` not advised yet whose club has a finance contact, row-locked until commit, in
 * lodgement-reference order (the order their RCTI numbers follow). A grant another transaction advised meanwhile is
 * not returned: PostgreSQL checks `advised_at is null` again on the row it waited for.
 */
export async function lockGrantsToAdvise(trx: Kysely<DB>, scope: AdviceScope): Promise<GrantToAdvise[]> {
  const { rows } = await sql<GrantToAdvise>`
    select g.id, a.gst_registered
    from grants g
    join grant_rounds r on r.id = g.round_id
    join accounts a on a.id = g.account_id
    where ${inScope(scope)} and g.status = 'paid' and r.status = 'paid' and g.advised_at is null
      and exists (select 1 from club_contacts c where c.account_id = g.account_id and c.role = 'finance')
    order by g.lodgement_reference, g.id
    for update of g`.execute(trx);
  return rows;
}

/**
 * Takes `count` consecutive RCTI numbers; returns the first. The series' row stays locked until the caller's
 * transaction ends, so numbers are gapless: a rolled-back issue gives its numbers back.
 */
export async function takeRctiNumbers(trx: Kysely<DB>, count: number): Promise<number> {
  const { rows } = await sql<{ first: string }>`
    insert into rcti_counters (series, next) values ('RCTI', ${count + 1})
    on conflict (series) do update set next = rcti_counters.next + ${count}
    returning next - ${count} as first`.execute(trx);
  return Number(rows[0]!.first);
}

/** Records grants advised now, under the issuer row given, each with its RCTI number (or null). */
export async function markAdvised(
  trx: Kysely<DB>,
  advised: readonly { id: string; rcti: string | null }[],
  terms: { at: Date; issuerId: string; sample: boolean },
): Promise<void> {
  if (advised.length === 0) return;
  await sql`
    update grants g set advised_at = ${terms.at.toISOString()}::timestamptz,
      advice_issuer_id = ${terms.issuerId}::bigint, advice_sample = ${terms.sample}, rcti_number = x.rcti
    from unnest(${advised.map((a) => a.id)}::uuid[], ${advised.map((a) => a.rcti)}::text[]) as x(id, rcti)
    where g.id = x.id`.execute(trx);
}

/**
 * Writes one `grant-advice` message per finance contact of each grant's club, its PDF attached by reference
 * (rendered when sent), and a delivery job per message; written held, without jobs, when mail cannot leave under the
 * settings (`heldBecause`). Returns how many messages were written.
 */
export async function insertAdviceMessages(
  trx: Kysely<DB>,
  grantIds: readonly string[],
  heldBecause: string | null,
): Promise<number> {
  if (grantIds.length === 0) return 0;
  const held = heldBecause !== null;
  const { rows } = await sql<{ written: number; jobs: number }>`
    with m as (
      insert into mail_outbox (kind, recipient, attachments, about, status, last_error)
      select 'grant-advice', c.email, jsonb_build_array(jsonb_build_object('type', 'grant-advice', 'id', g.id)),
        'grant:' || g.lodgement_reference, ${held ? 'held' : 'pending'}, ${heldBecause}
      from unnest(${[...grantIds]}::uuid[]) as x(id)
      join grants g on g.id = x.id
      join club_contacts c on c.account_id = g.account_id and c.role = 'finance'
      order by g.lodgement_reference, c.created_at, c.id
      returning id
    ),
    to_send as (select id from m where ${!held}),
    jobs as (${insertJobsForRows(MAIL_DELIVERY_QUEUE, 'to_send', 'messageId')})
    select (select count(*) from m)::int as written, (select count(*) from jobs)::int as jobs`.execute(trx);
  const { written, jobs } = rows[0]!;
  if (!held && Number(jobs) !== Number(written)) throw new Error(`job queue ${MAIL_DELIVERY_QUEUE} is not installed`);
  return Number(written);
}

/** The finance contacts' addresses of a grant's club, oldest first. */
export async function financeContactsOf(db: Kysely<DB>, grantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('grants as g')
    .innerJoin('club_contacts as c', 'c.account_id', 'g.account_id')
    .select('c.email')
    .where('g.id', '=', grantId)
    .where('c.role', '=', 'finance')
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => r.email);
}
