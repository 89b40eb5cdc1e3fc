import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** An advised grant with its round, its club and the terms it was advised under. */
export interface AdviceGrantRow {
  id: string;
  lodgement_reference: string;
  rcti_number: string | null;
  advised_at: Date;
  advice_sample: boolean;
  bsb: string;
  account_number: string;
  account_name: string;
  donations_cents: string;
  recovered_cents: string;
  reissued_cents: string;
  fee_cents: string;
  amount_cents: string;
  round_number: number;
  scheduled_on: string | null;
  drafted_at: Date;
  paid_at: Date;
  club_name: string;
  member_number: string;
  club_abn: string | null;
  legal_name: string;
  issuer_abn: string;
  time_zone: string;
  acquittal_due_on: string | null;
}

export interface AdviceDonationRow {
  grant_id: string;
  amount_cents: string;
  reference_id: string;
  at: Date;
  donor_name_shared: boolean;
  donor_first_name: string;
  donor_last_name: string;
  donor_business_name: string | null;
}

export interface AdviceRecoveryRow {
  grant_id: string;
  amount_cents: string;
  donation_reference_id: string;
  created_at: Date;
}

export interface AdviceReissueRow {
  grant_id: string;
  lodgement_reference: string | null;
  amount_cents: string;
}

/**
 * What the advices of these grants say, read together (a batch of messages): four statements whatever their
 * number. A grant not advised yet (no issuer row) is absent from the answer.
 */
export async function adviceRows(db: Kysely<DB>, ids: readonly string[]) {
  const list = [...ids];
  const grants = await sql<AdviceGrantRow>`
    select g.id, g.lodgement_reference, g.rcti_number, g.advised_at, g.advice_sample, g.bsb, g.account_number,
      g.account_name, g.donations_cents, g.recovered_cents, g.reissued_cents, g.fee_cents, g.amount_cents,
      r.number as round_number, r.scheduled_on, r.drafted_at, r.paid_at,
      a.name as club_name, a.member_number, a.abn as club_abn,
      i.legal_name, i.abn as issuer_abn, i.time_zone, q.due_on as acquittal_due_on
    from grants g
    join grant_rounds r on r.id = g.round_id
    join accounts a on a.id = g.account_id
    join receipt_issuers i on i.id = g.advice_issuer_id
    left join grant_acquittals q on q.grant_id = g.id
    where g.id = any(${list}::uuid[])`.execute(db);
  const donations = await sql<AdviceDonationRow>`
    select gi.grant_id, gi.amount_cents, d.reference_id, coalesce(d.transaction_at, d.created_at) as at,
      d.donor_name_shared, d.donor_first_name, d.donor_last_name, d.donor_business_name
    from grant_items gi join donations d on d.id = gi.donation_id
    where gi.grant_id = any(${list}::uuid[])
    order by at, d.reference_id`.execute(db);
  const recoveries = await sql<AdviceRecoveryRow>`
    select gr.grant_id, gr.amount_cents, v.donation_reference_id, v.created_at
    from grant_recoveries gr join donation_reversals v on v.id = gr.reversal_id
    where gr.grant_id = any(${list}::uuid[])
    order by v.created_at, v.id`.execute(db);
  const reissued = await sql<AdviceReissueRow>`
    select reissued_in as grant_id, lodgement_reference, amount_cents from grants
    where reissued_in = any(${list}::uuid[])
    order by created_at, id`.execute(db);
  return { grants: grants.rows, donations: donations.rows, recoveries: recoveries.rows, reissued: reissued.rows };
}
