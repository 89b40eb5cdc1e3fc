import { sql, type Kysely } from 'kysely';
import type { DB } from '../../src/infrastructure/db/schema.js';
import type { HistorySize } from './support.js';

/** Time between two donations of the history (and two events, two audit entries): 100,000 of them are two years. */
const SPACING = sql`interval '10 minutes'`;

/**
 * Years of history for one partner, written set-based (INSERT … SELECT over generate_series) in a few seconds:
 * donations, each settled by an entry of a completed batch, receipted and mailed, told as an event; bank lines that
 * received the first entries' money; operators' audit entries. Then ANALYZE, so that plans see the history as a
 * server that lived it would. Keys are prefixed `H` so nothing the test does later collides with them.
 */
export async function seedHistory(
  db: Kysely<DB>,
  owner: { partnerId: string; environment: string },
  size: HistorySize,
): Promise<void> {
  const { partnerId, environment: env } = owner;
  // Literals, not parameters: PostgreSQL types an untyped parameter from its use, and `$1 / $2` has none.
  const n = sql.lit(size.donations);
  const per = sql.lit(size.entriesPerBatch);
  const batchId = (i: ReturnType<typeof sql>) => sql`('00000000-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
  const batchOf = sql`((i - 1) / ${per} + 1)`;
  const ref = sql`'DON-H' || lpad(i::text, 8, '0')`;
  await sql`
    insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
                           donor_email, donor_first_name, donor_last_name, address_postal_code, amount_cents,
                           transaction_id, request_hash, correlation_id, created_at)
    select ${ref}, ${partnerId}::uuid, ${env}, false, 'Storefront App', a.id, '10000001',
           'donor' || (i % 50000) || '@example.com', 'Hist', 'Donor', '2000', 1000 + i % 5000, 'TX-H' || i, 'h',
           gen_random_uuid(), now() - interval '1 day' - (${n} - i) * ${SPACING}
    from generate_series(1, ${n}) i, accounts a where a.member_number = '10000001'`.execute(db);
  await sql`
    insert into remittance_batches (id, partner_id, environment, channel, fundraiser_id, account_id, status,
                                    entry_count, total_cents, request_hash, correlation_id, created_at, started_at,
                                    completed_at, outcome_counts, exception_count)
    select ${batchId(sql`b`)}, ${partnerId}::uuid, ${env}, 'Storefront App', '10000001', a.id, 'completed', ${per}, 0,
           'h', gen_random_uuid(), t, t, t, jsonb_build_object('matched', ${per}), 0
    from generate_series(1, ${n} / ${per}) b, accounts a,
         lateral (select now() - interval '1 day' - (${n} / ${per} - b) * ${per} * ${SPACING} as t) ts
    where a.member_number = '10000001'`.execute(db);
  await sql`
    insert into remittance_entries (batch_id, position, bank_reference_id, amount_cents, donation_ids, outcome)
    select ${batchId(batchOf)}, (i - 1) % ${per}, 'HREF' || i, 1000 + i % 5000, array[${ref}], 'matched'
    from generate_series(1, ${n}) i`.execute(db);
  await sql`
    insert into remittance_bank_references (partner_id, environment, bank_reference_id, batch_id, position,
                                            amount_cents, donation_ids, settled_at)
    select ${partnerId}::uuid, ${env}, 'HREF' || i, ${batchId(batchOf)}, (i - 1) % ${per}, 1000 + i % 5000,
           array[${ref}], now() - interval '1 day' - (${n} - i) * ${SPACING}
    from generate_series(1, ${n}) i`.execute(db);
  await sql`
    insert into donation_settlements (donation_id, donation_reference_id, partner_id, environment, bank_reference_id,
                                      batch_id, position, amount_cents, settled_at)
    select d.id, d.reference_id, d.partner_id, d.environment, 'HREF' || i, ${batchId(batchOf)}, (i - 1) % ${per},
           d.amount_cents, d.created_at
    from donations d, lateral (select substr(d.reference_id, 6)::int as i) k
    where d.reference_id like 'DON-H%'`.execute(db);
  const { rows } = await sql<{ id: string }>`
    insert into receipt_issuers (legal_name, abn, dgr_statement, minimum_cents, time_zone)
    values ('History Foundation', '51824753556', 'History', 200, 'Australia/Sydney') returning id`.execute(db);
  await sql`
    insert into receipts (number, series, financial_year, sequence, issuer_id, donation_id, donation_reference_id,
                          partner_id, environment, amount_cents, gift_date, donor_name, donor_email, fundraiser_name,
                          fundraiser_id, issued_at, issue_reason)
    select 'H-' || d.reference_id, 'sample', '2019-20', row_number() over (order by d.reference_id), ${rows[0]!.id},
           d.id, d.reference_id, d.partner_id, d.environment, d.amount_cents, to_char(d.created_at, 'YYYY-MM-DD'),
           'Hist Donor', d.donor_email, 'History Club', '10000001', d.created_at, 'settled'
    from donations d where d.reference_id like 'DON-H%'`.execute(db);
  await sql`
    insert into mail_outbox (kind, recipient, attachments, about, status, attempts, delivered_to, sent_at,
                             created_at, updated_at)
    select 'receipt', r.donor_email, jsonb_build_array(jsonb_build_object('type', 'receipt', 'id', r.id)),
           'donation:' || r.donation_reference_id, 'sent', 1, r.donor_email, r.issued_at, r.issued_at, r.issued_at
    from receipts r where r.number like 'H-%'`.execute(db);
  await seedEvents(db, owner, size.donations);
  await seedDebits(db, owner, size.donations);
  await seedBankHistory(db, size);
  await sql`
    insert into audit_log (at, actor, action, subject, details)
    select now() - i * ${SPACING}, 'ops' || (i % 20) || '@example.org', 'partner.update',
           'partner:' || (i % 500), jsonb_build_object('n', i)
    from generate_series(1, ${sql.lit(size.auditEntries)}) i`.execute(db);
  await sql`analyze`.execute(db);
}

/** One settlement event per donation, numbered after the partner's events so far (their sequence stays gapless). */
async function seedEvents(db: Kysely<DB>, owner: { partnerId: string; environment: string }, count: number) {
  const { partnerId, environment: env } = owner;
  const { rows } = await sql<{ last: number }>`
    select coalesce(max(sequence), 0) as last from webhook_events
    where partner_id = ${partnerId}::uuid and environment = ${env}`.execute(db);
  const last = Number(rows[0]!.last);
  const n = sql.lit(count);
  await sql`
    insert into webhook_events (id, partner_id, environment, sequence, type, data, created_at)
    select 'evt_H' || i, ${partnerId}::uuid, ${env}, ${sql.lit(last)} + i, 'webhook.test',
           jsonb_build_object('endpointId', gen_random_uuid(), 'message', 'history ' || i),
           now() - interval '1 day' - (${n} - i) * ${SPACING}
    from generate_series(1, ${n}) i`.execute(db);
  await sql`
    insert into webhook_event_sequences (partner_id, environment, last_sequence)
    values (${partnerId}::uuid, ${env}, ${last + count})
    on conflict (partner_id, environment) do update set last_sequence = excluded.last_sequence`.execute(db);
}

/** Bank lines that received the money of the first entries, each through an automatic match. */
async function seedBankHistory(db: Kysely<DB>, size: HistorySize) {
  const lines = sql.lit(size.bankLines);
  const per = sql.lit(size.entriesPerBatch);
  const id = sql`1000000000 + i`;
  const { rows } = await sql<{ id: string }>`
    insert into bank_statements (file_name, file_sha256, format, layout, lines_read, lines_added, imported_by)
    values ('history.xml', 'history', 'camt053', 'camt053', ${lines}, ${lines}, 'history') returning id`.execute(db);
  await sql`
    insert into bank_lines (id, statement_id, line_no, account, booked_on, credit, amount_cents, description,
                            reference, tokens, dedupe_key)
    select ${id}, ${rows[0]!.id}::uuid, i, 'AU000000000', to_char(now() - interval '1 day' - (${sql.lit(size.donations)} - i) * ${SPACING},
           'YYYY-MM-DD'), true, 1000 + i % 5000, 'Remittance HREF' || i, 'HREF' || i, array['REMITTANCE', 'HREF' || i],
           'history:' || i
    from generate_series(1, ${lines}) i`.execute(db);
  await sql`
    insert into bank_matches (id, method, rule, line_cents, entry_cents, decided_by)
    select ${id}, 'automatic', 'reference', 1000 + i % 5000, 1000 + i % 5000, 'system'
    from generate_series(1, ${lines}) i`.execute(db);
  await sql`
    insert into bank_match_lines (match_id, line_id, amount_cents)
    select ${id}, ${id}, 1000 + i % 5000 from generate_series(1, ${lines}) i`.execute(db);
  await sql`
    insert into bank_match_entries (match_id, batch_id, position, amount_cents)
    select ${id}, ('00000000-0000-4000-8000-' || lpad(to_hex((i - 1) / ${per} + 1), 12, '0'))::uuid,
           (i - 1) % ${per}, 1000 + i % 5000
    from generate_series(1, ${lines}) i`.execute(db);
}

/** One-off debits collected long ago, on one mandate: what the look for due debits must not read. */
async function seedDebits(db: Kysely<DB>, owner: { partnerId: string; environment: string }, count: number) {
  const { partnerId, environment: env } = owner;
  await sql`
    insert into mandates (id, partner_id, environment, channel, account_id, fundraiser_id, fundraiser_first_name,
                          fundraiser_last_name, fundraiser_email, provider, status, correlation_id)
    select 'MDT-H', ${partnerId}::uuid, ${env}, 'Storefront App', a.id, '10000001', 'Hist', 'Donor',
           'hist@example.com', 'simulator', 'active', gen_random_uuid()
    from accounts a where a.member_number = '10000001'`.execute(db);
  await sql`
    insert into debits (id, partner_id, environment, is_live, mandate_id, transaction_id, amount_cents, due_date,
                        status, attempts, queued_attempt, correlation_id, settled_at, created_at, updated_at)
    select 'DBT-H' || i, ${partnerId}::uuid, ${env}, false, 'MDT-H', 'DTX-H' || i, 1000 + i % 5000,
           to_char(t, 'YYYY-MM-DD'), 'succeeded', 1, 1, 'h', t, t, t
    from generate_series(1, ${sql.lit(count)}) i,
         lateral (select now() - interval '1 day' - (${sql.lit(count)} - i) * ${SPACING} as t) ts`.execute(db);
}
