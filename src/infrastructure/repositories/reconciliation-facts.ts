import { sql, type Kysely } from 'kysely';
import type { BankReferenceClaim, DonationFacts } from '../../domain/reconciliation.js';
import type { DB } from '../db/schema.js';
import type { BatchToReconcile } from './reconciliation.js';

/**
 * What a batch's reconciliation decides from (src/domain/reconciliation.ts): the donations its entries name and the
 * partner's bank references already claimed. Each is one statement whatever the batch size.
 */

/*
 * The look-ups below take the batch's ids as one array parameter rather than joining the batch's entries, and give
 * each id its own probe of a unique index in a LATERAL subquery, which LIMIT 1 keeps from being flattened into a
 * join the planner could reorder: the plan then holds whatever the statistics say. They are often stale here (a
 * table just filled by a large batch or a burst of donations, not analysed yet), and every other shape was planned
 * from them: a join of the batch's entries turned a 10,000-entry replay into a 10,000 × 10,000 loop; `col = any(ids)`
 * is costed as one index descent per id, so with 211,000 donations believed to be 5,000 PostgreSQL 15 scanned them
 * all for every chunk (30-64 ms each, a quarter of a 100,000-entry batch's reconciliation), and where the key has a
 * partner prefix it scanned all of the partner's rows with `any` as a filter, growing without end.
 */

/** Every donation the batch names, whoever owns it, with its settlement if any. Unknown ids are simply absent. */
export async function loadDonationFacts(
  trx: Kysely<DB>,
  batch: BatchToReconcile,
  referenceIds: string[],
): Promise<Map<string, DonationFacts>> {
  const { rows: donations } = await sql<{
    id: string;
    reference_id: string;
    partner_id: string;
    environment: string;
    amount_cents: string | number | null;
    reversed_cents: string | number;
    bank_reference_id: string | null;
  }>`
    select d.id, d.reference_id, d.partner_id, d.environment, d.amount_cents, d.reversed_cents, s.bank_reference_id
    from unnest(${referenceIds}::text[]) as k(id)
    cross join lateral (
      select d.id, d.reference_id, d.partner_id, d.environment, d.amount_cents, d.reversed_cents
      from donations d where d.reference_id = k.id limit 1
    ) as d
    left join lateral (
      -- A donation a debit collected is settled already: named by its debit, as it has no bank reference of its own.
      select coalesce(bank_reference_id, 'direct debit ' || debit_id) as bank_reference_id
      from donation_settlements s where s.donation_reference_id = d.reference_id limit 1
    ) as s on true`.execute(trx);
  return new Map(
    donations.map((d) => [
      d.reference_id,
      {
        donationId: d.id,
        referenceId: d.reference_id,
        own: d.partner_id === batch.partnerId && d.environment === batch.environment,
        amountCents: d.amount_cents === null ? null : Number(d.amount_cents),
        reversedCents: Number(d.reversed_cents),
        settledBy: d.bank_reference_id,
      },
    ]),
  );
}

/** The partner's bank references, among the batch's, that already settled donations. */
export async function loadClaims(
  trx: Kysely<DB>,
  batch: BatchToReconcile,
  bankReferenceIds: string[],
): Promise<Map<string, BankReferenceClaim>> {
  // One unique-index probe per reference (see above): the partner's references only grow.
  const { rows } = await sql<{
    bank_reference_id: string;
    amount_cents: string | number;
    donation_ids: string[];
    batch_id: string;
    position: number;
  }>`
    select c.bank_reference_id, c.amount_cents, c.donation_ids, c.batch_id, c.position
    from unnest(${bankReferenceIds}::text[]) as k(id)
    cross join lateral (
      select r.bank_reference_id, r.amount_cents, r.donation_ids, r.batch_id, r.position
      from remittance_bank_references r
      where r.partner_id = ${batch.partnerId}::uuid and r.environment = ${batch.environment}
        and r.bank_reference_id = k.id
      limit 1
    ) as c`.execute(trx);
  return new Map(
    rows.map((r) => [
      r.bank_reference_id,
      {
        bankReferenceId: r.bank_reference_id,
        amountCents: Number(r.amount_cents),
        donationIds: r.donation_ids,
        batchId: r.batch_id,
        position: r.position,
      },
    ]),
  );
}
