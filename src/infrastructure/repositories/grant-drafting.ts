import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.js';
import type { GrantBasis, GrantHoldReason } from '../db/schema-grants.js';

/**
 * The set-based statements that draft a round (docs/grants.md, "Drafting"): one pass over the donations not yet
 * granted to sum each club's line, and one that claims them for the clubs paid. The caller runs both in one
 * repeatable-read transaction, so they read the same donations and the claims are exactly what was summed.
 */

export interface EligibleParams {
  roundId: string;
  environment: string;
  basis: GrantBasis;
  cutoffAt: Date;
}

/**
 * Donations of this environment settled (or whose money was received, by the basis) before the cut-off, with
 * something left after reversals, and granted by no round. A fully reversed donation never comes back, so it is
 * skipped rather than claimed (docs/decisions/0063-grant-round-cut-off-and-fee-rounding.md).
 */
function eligible(p: EligibleParams): RawBuilder<unknown> {
  const basis =
    p.basis === 'settled'
      ? sql`s.settled_at < ${p.cutoffAt}`
      : sql`((s.debit_id is not null and s.settled_at < ${p.cutoffAt})
          or exists (select 1 from bank_match_entries me
                     where me.batch_id = s.batch_id and me.position = s.position and me.active
                       and me.received_at < ${p.cutoffAt}))`;
  return sql`
    select d.id as donation_id, d.account_id, d.amount_cents - d.reversed_cents as net_cents
    from donation_settlements s
    join donations d on d.id = s.donation_id
    where s.environment = ${p.environment} and d.environment = ${p.environment}
      and d.amount_cents > d.reversed_cents
      and ${basis}
      and not exists (select 1 from grant_items gi where gi.donation_id = s.donation_id)`;
}

/** Reversals owed back of donations already granted, after they were granted, that no grant recovered yet. */
function recoverable(environment: string): RawBuilder<unknown> {
  return sql`
    select r.id as reversal_id, d.account_id, r.amount_cents
    from donation_reversals r
    join grant_items gi on gi.donation_id = r.donation_id
    join donations d on d.id = r.donation_id
    where r.owed_back and r.environment = ${environment} and r.seq > gi.reversal_seq
      and not exists (select 1 from grant_recoveries gr where gr.reversal_id = r.id)`;
}

/**
 * For the drafting transaction only. grant_items grows as the claim inserts: a nested-loop anti-join against it (what
 * the planner picks while its statistics say it is empty) rescans its new pages for every donation, quadratic in the
 * round's size; a hash anti-join reads it once. Each statement stays bounded by DB_STATEMENT_TIMEOUT_MS.
 */
export async function prepareDrafting(trx: Kysely<DB>): Promise<void> {
  await sql`set local enable_nestloop = off`.execute(trx);
}

export interface ClubFacts {
  account_id: string;
  member_number: string;
  donations_cents: string;
  donation_count: number;
  recovered_cents: string;
  reissued_cents: string;
  bank_details_id: string | null;
  bsb: string | null;
  account_number: string | null;
  account_name: string | null;
  details_payable: boolean;
  payment_returned: boolean;
  acquittal_overdue: boolean;
}

/**
 * What each club with anything owed (donations, recoveries or returned grants) has: the sums, its verified bank
 * details and whether they may be paid (hold waived, or entered by `holdBefore`), a return since they were
 * verified, and an acquittal due before `day` still unrecorded. In member-number order.
 */
export async function clubFacts(
  trx: Kysely<DB>,
  p: EligibleParams & { holdBefore: Date; day: string },
): Promise<ClubFacts[]> {
  const { rows } = await sql<ClubFacts>`
    with e as (${eligible(p)}),
    don as (select account_id, sum(net_cents) as cents, count(*)::int as n from e group by account_id),
    rec as (select account_id, sum(amount_cents) as cents from (${recoverable(p.environment)}) x group by account_id),
    rei as (select account_id, sum(amount_cents) as cents from grants
            where status = 'returned' and reissued_in is null group by account_id),
    clubs as (select account_id from don union select account_id from rec union select account_id from rei)
    select c.account_id, a.member_number,
      coalesce(don.cents, 0)::text as donations_cents, coalesce(don.n, 0) as donation_count,
      coalesce(rec.cents, 0)::text as recovered_cents, coalesce(rei.cents, 0)::text as reissued_cents,
      bd.id as bank_details_id, bd.bsb, bd.account_number, bd.account_name,
      coalesce(bd.hold_waived or bd.entered_at <= ${p.holdBefore}, false) as details_payable,
      exists (select 1 from grants g where g.account_id = c.account_id and g.status = 'returned'
              and g.returned_at > bd.verified_at) as payment_returned,
      exists (select 1 from grant_acquittals q where q.account_id = c.account_id and q.recorded_at is null
              and q.due_on < ${p.day}) as acquittal_overdue
    from clubs c
    join accounts a on a.id = c.account_id
    left join don on don.account_id = c.account_id
    left join rec on rec.account_id = c.account_id
    left join rei on rei.account_id = c.account_id
    left join club_bank_details bd on bd.account_id = c.account_id and bd.status = 'verified'
    order by a.member_number`.execute(trx);
  return rows;
}

export interface NewLine {
  account_id: string;
  status: 'payable' | 'held';
  hold_reason: GrantHoldReason | null;
  donations_cents: string;
  recovered_cents: string;
  reissued_cents: string;
  fee_cents: string;
  amount_cents: string;
  donation_count: number;
  bank_details_id: string | null;
  bsb: string | null;
  account_number: string | null;
  account_name: string | null;
  lodgement_reference: string | null;
}

const LINES_PER_INSERT = 2_000;

/** The round's lines, a few thousand per statement. */
export async function insertLines(trx: Kysely<DB>, roundId: string, lines: readonly NewLine[], at: Date) {
  for (let i = 0; i < lines.length; i += LINES_PER_INSERT) {
    const chunk = JSON.stringify(lines.slice(i, i + LINES_PER_INSERT));
    await sql`
      insert into grants (round_id, account_id, status, hold_reason, donations_cents, recovered_cents, reissued_cents,
                          fee_cents, amount_cents, donation_count, bank_details_id, bsb, account_number, account_name,
                          lodgement_reference, created_at)
      select ${roundId}, l.account_id, l.status, l.hold_reason, l.donations_cents, l.recovered_cents, l.reissued_cents,
             l.fee_cents, l.amount_cents, l.donation_count, l.bank_details_id, l.bsb, l.account_number,
             l.account_name, l.lodgement_reference, ${at}
      from jsonb_to_recordset(${chunk}::jsonb) as l(
        account_id uuid, status text, hold_reason text, donations_cents bigint, recovered_cents bigint,
        reissued_cents bigint, fee_cents bigint, amount_cents bigint, donation_count integer, bank_details_id uuid,
        bsb text, account_number text, account_name text, lodgement_reference text)`.execute(trx);
  }
}

/**
 * Claims for the round's paid lines what their sums counted: the donations (with the newest reversal netted off
 * each), the reversals recovered and the returned grants paid again. Each claim is a primary key or a null-only
 * update, so nothing is claimed twice whatever else runs.
 */
export async function claimForPaidLines(trx: Kysely<DB>, p: EligibleParams): Promise<{ donations: number }> {
  const items = await sql`
    insert into grant_items (donation_id, grant_id, amount_cents, reversal_seq)
    select e.donation_id, g.id, e.net_cents, coalesce(rv.seq, 0)
    from (${eligible(p)}) e
    join grants g on g.round_id = ${p.roundId} and g.account_id = e.account_id and g.status = 'payable'
    left join (select donation_id, max(seq) as seq from donation_reversals group by donation_id) rv
      on rv.donation_id = e.donation_id`.execute(trx);
  await sql`
    insert into grant_recoveries (reversal_id, grant_id, amount_cents)
    select x.reversal_id, g.id, x.amount_cents
    from (${recoverable(p.environment)}) x
    join grants g on g.round_id = ${p.roundId} and g.account_id = x.account_id and g.status = 'payable'`.execute(trx);
  await sql`
    update grants r set reissued_in = g.id
    from grants g
    where g.round_id = ${p.roundId} and g.status = 'payable' and g.account_id = r.account_id
      and r.status = 'returned' and r.reissued_in is null`.execute(trx);
  return { donations: Number(items.numAffectedRows ?? 0) };
}

/** A cancelled draft's claims released: its donations, recoveries and returned grants are free again. */
export async function releaseClaims(trx: Kysely<DB>, roundId: string): Promise<void> {
  const ofRound = sql`(select id from grants where round_id = ${roundId})`;
  await sql`delete from grant_items where grant_id in ${ofRound}`.execute(trx);
  await sql`delete from grant_recoveries where grant_id in ${ofRound}`.execute(trx);
  await sql`update grants set reissued_in = null where reissued_in in ${ofRound}`.execute(trx);
  await sql`update grants set status = 'cancelled', hold_reason = null
            where round_id = ${roundId} and status = 'payable'`.execute(trx);
}

/** The round's totals, from its lines. */
export async function setRoundTotals(trx: Kysely<DB>, roundId: string): Promise<void> {
  await sql`
    update grant_rounds r set
      total_cents = coalesce((select sum(amount_cents) from grants where round_id = r.id and status = 'payable'), 0),
      grant_count = (select count(*) from grants where round_id = r.id and status = 'payable'),
      held_count = (select count(*) from grants where round_id = r.id and status = 'held')
    where r.id = ${roundId}`.execute(trx);
}
