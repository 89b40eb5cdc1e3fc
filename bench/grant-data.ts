import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/infrastructure/db/schema.js';

/**
 * Clubs with verified bank details and their settled donations, written straight into the tables with
 * generate_series (the API would take hours for a million): the grants bench and the kill -9 test of drafting.
 * Each club gets one remittance batch whose one entry settled all its donations (what reconciliation leaves).
 */
export interface GrantData {
  clubs: number;
  donationsPerClub: number;
  /** Each donation's amount, in cents. */
  amountCents: number;
  environment: string;
  /** A prefix that keeps member numbers and references apart between loads. */
  tag: string;
}

export async function loadGrantData(db: Kysely<DB>, data: GrantData): Promise<{ partnerId: string }> {
  const { rows } = await sql<{ id: string }>`
    insert into partners (name, quota_limit, quota_window_seconds)
    values (${`Grants bench ${data.tag}`}, 1000, 60) returning id`.execute(db);
  const partnerId = rows[0]!.id;
  const tag = data.tag;
  await sql`
    insert into accounts (member_number, name)
    select ${tag} || lpad(i::text, 6, '0'), 'Grant club ' || i from generate_series(1, ${data.clubs}) i`.execute(db);
  const clubs = sql`(select id, member_number from accounts where member_number like ${`${tag}%`})`;
  await sql`
    insert into club_bank_details (account_id, bsb, account_number, account_name, status, entered_by, entered_at, source,
                                   verified_by, verified_at, confirmation)
    select c.id, '062-000', lpad(right(c.member_number, 6), 8, '1'), 'Club ' || c.member_number, 'verified',
           'bench-clerk', now() - interval '60 days', 'cli', 'bench-checker', now() - interval '59 days', 'bench'
    from ${clubs} c`.execute(db);
  await sql`
    insert into remittance_batches (id, partner_id, environment, channel, fundraiser_id, account_id, status, entry_count,
                                    total_cents, request_hash, correlation_id, completed_at)
    select c.id, ${partnerId}, ${data.environment}, 'Storefront App', c.member_number, c.id, 'completed', 1,
           ${data.amountCents * data.donationsPerClub}, 'bench', gen_random_uuid(), now()
    from ${clubs} c`.execute(db);
  await sql`
    insert into remittance_entries (batch_id, position, bank_reference_id, amount_cents, donation_ids, outcome)
    select c.id, 0, 'GB-' || c.member_number, ${data.amountCents * data.donationsPerClub}::bigint, '{}', 'matched'
    from ${clubs} c`.execute(db);
  await sql`
    insert into remittance_bank_references (partner_id, environment, bank_reference_id, batch_id, position, amount_cents,
                                            donation_ids)
    select ${partnerId}, ${data.environment}, 'GB-' || c.member_number, c.id, 0,
           ${data.amountCents * data.donationsPerClub}::bigint, '{}'
    from ${clubs} c`.execute(db);
  await sql`
    insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
                           donor_email, donor_first_name, donor_last_name, address_postal_code, amount_cents,
                           request_hash, correlation_id)
    select 'DON-' || c.member_number || '-' || lpad(i::text, 6, '0'), ${partnerId}, ${data.environment}, false,
           'Storefront App', c.id, c.member_number, 'bulk@example.com', 'Bulk', 'Donor', '2000', ${data.amountCents},
           'bench', gen_random_uuid()
    from ${clubs} c, generate_series(1, ${data.donationsPerClub}) i`.execute(db);
  await sql`
    insert into donation_settlements (donation_id, donation_reference_id, partner_id, environment, bank_reference_id,
                                      batch_id, position, amount_cents, settled_at)
    select d.id, d.reference_id, d.partner_id, d.environment, 'GB-' || d.fundraiser_id, d.account_id, 0,
           d.amount_cents, now() - interval '1 day'
    from donations d where d.partner_id = ${partnerId}`.execute(db);
  await sql`analyze`.execute(db);
  return { partnerId };
}
