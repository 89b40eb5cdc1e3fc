import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A donation's donor as its receipts name them now: the latest operator correction, else what the partner sent. */
export interface CurrentDonor {
  donationId: string;
  referenceId: string;
  firstName: string;
  lastName: string;
  businessName: string | null;
  email: string;
}

/** The donations whose donor is, now, the person of `key` (a lower-case address), still identified. */
export async function donationsOfCurrentEmail(db: Kysely<DB>, key: string): Promise<CurrentDonor[]> {
  const { rows } = await sql<{
    id: string;
    reference_id: string;
    first_name: string;
    last_name: string;
    business_name: string | null;
    email: string;
  }>`
    select d.id, d.reference_id,
           coalesce(c.first_name, d.donor_first_name) as first_name,
           coalesce(c.last_name, d.donor_last_name) as last_name,
           case when c.seq is null then d.donor_business_name else c.business_name end as business_name,
           coalesce(c.email, d.donor_email) as email
    from donations d
    left join lateral (select * from donor_corrections x where x.donation_id = d.id order by x.seq desc limit 1) c
      on true
    where d.deidentified_at is null
      and (lower(d.donor_email) = ${key} or d.id in (select donation_id from donor_corrections where lower(email) = ${key}))
      and lower(coalesce(c.email, d.donor_email)) = ${key}
    order by d.created_at, d.id`.execute(db);
  return rows.map((r) => ({
    donationId: r.id,
    referenceId: r.reference_id,
    firstName: r.first_name,
    lastName: r.last_name,
    businessName: r.business_name,
    email: r.email,
  }));
}

/** The donation itself names the corrected donor too (a search by the new address finds it). */
export async function updateDonationDonor(db: Kysely<DB>, donor: CurrentDonor): Promise<void> {
  await sql`update donations set donor_first_name = ${donor.firstName}, donor_last_name = ${donor.lastName},
              donor_business_name = ${donor.businessName}, donor_email = ${donor.email}
            where id = ${donor.donationId} and deidentified_at is null`.execute(db);
}

/** Mandates of the address: their person corrected. Returns how many. */
export async function correctMandates(
  db: Kysely<DB>,
  key: string,
  change: { firstName?: string; lastName?: string; email?: string },
): Promise<number> {
  const result = await sql`update mandates set
      fundraiser_first_name = coalesce(${change.firstName ?? null}, fundraiser_first_name),
      fundraiser_last_name = coalesce(${change.lastName ?? null}, fundraiser_last_name),
      fundraiser_email = coalesce(${change.email ?? null}, fundraiser_email), updated_at = now()
    where deidentified_at is null and lower(fundraiser_email) = ${key}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
