import { sql, type Kysely } from 'kysely';
import type { BankReferenceClaim, DonationFacts } from '../../domain/reconciliation.js';
import type { DB } from '../db/schema.js';
import type { BatchToReconcile } from './reconciliation.js';

/**
 * What a batch's reconciliation decides from (src/domain/reconciliation.ts): the donations its entries name and the
 * partner's bank references already claimed. Each is one statement whatever the batch size.
 */

/*
 * The look-ups below take the batch's ids as one array parameter rather than joining the batch's entries, so that
 * they probe unique indexes whatever the planner believes: a join planned on stale statistics (a table just filled
 * by a large batch, not analysed yet) turned a 10,000-entry replay into a 10,000 × 10,000 loop. Where the unique
 * key has a partner prefix, `col = any(ids)` is not enough either: PostgreSQL 15 costs it as one index descent per
 * id and, believing the partner has a handful of rows, scanned all of the partner's rows with `any` as a filter
 * (5 ms per batch after 40,000 references, growing without end). There each id gets its own probe in a LATERAL
 * subquery, which LIMIT 1 keeps from being flattened into a join the planner could reorder.
 */

/** Every donation the batch names, whoever owns it, with its settlement if any. Unknown ids are simply absent. */
export async function loadDonationFacts(
  trx: Kysely<DB>,
  batch: BatchToReconcile,
  referenceIds: string[],
): Promise<Map<string, DonationFacts>> {
  const donations = await trx
    .selectFrom('donations as d')
    .leftJoin('donation_settlements as s', 's.donation_reference_id', 'd.reference_id')
    .select(['d.id', 'd.reference_id', 'd.partner_id', 'd.environment', 'd.amount_cents', 's.bank_reference_id'])
    .where('d.reference_id', '=', sql<string>`any(${referenceIds}::text[])`)
    .execute();
  return new Map(
    donations.map((d) => [
      d.reference_id,
      {
        donationId: d.id,
        referenceId: d.reference_id,
        own: d.partner_id === batch.partnerId && d.environment === batch.environment,
        amountCents: d.amount_cents === null ? null : Number(d.amount_cents),
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
      select * from remittance_bank_references r
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
