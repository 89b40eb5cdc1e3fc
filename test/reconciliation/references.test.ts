import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';

/**
 * The references between a batch, its entries and their claims, and a statement's match links, checked once per
 * statement by the database (docs/decisions/0050-references-checked-per-statement.md): what the foreign keys they
 * replaced refused is still refused, whatever the code does; what the service writes is still accepted.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let partnerId: string;
let accountId: string;
const run = (query: string) => sql.raw(query).execute(database.db);

beforeAll(async () => {
  database = await createTestDatabase();
  const partner = await sql<{ id: string }>`
    insert into partners (name, quota_limit, quota_window_seconds) values ('References Test Partner', 10, 60)
    returning id`.execute(database.db);
  partnerId = partner.rows[0]!.id;
  const account = await sql<{ id: string }>`
    insert into accounts (member_number, name) values ('99000001', 'References Test Club') returning id`.execute(
    database.db,
  );
  accountId = account.rows[0]!.id;
}, 120_000);
afterAll(() => database?.dispose());

/** A batch with `entries` entries (positions 0…), in one statement as the service stores them. */
async function batchWith(entries: number): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    with batch as (
      insert into remittance_batches (partner_id, environment, channel, fundraiser_id, account_id, entry_count,
        total_cents, request_hash, correlation_id)
      values (${partnerId}::uuid, 'sit', 'Storefront App', '99000001', ${accountId}::uuid, ${entries}, ${entries * 100},
        'hash', ${randomUUID()}::uuid)
      returning id),
    entries as (
      insert into remittance_entries (batch_id, position, bank_reference_id, amount_cents, donation_ids)
      select batch.id, g, 'REF-' || g, 100, array['DON-' || g] from batch, generate_series(0, ${entries - 1}) g)
    select id::text from batch`.execute(database.db);
  return rows[0]!.id;
}

/** A statement with one credit line, and a match of it to the entry at `position` of `batchId`. */
async function matchedLine(batchId: string, position: number): Promise<{ lineId: number; matchId: number }> {
  const statement = await sql<{ id: string }>`
    insert into bank_statements (file_name, file_sha256, format, layout, lines_read, lines_added, imported_by)
    values ('s.csv', ${randomUUID()}, 'csv', 'commbank', 1, 1, 'test') returning id`.execute(database.db);
  const line = await sql<{ id: string }>`
    insert into bank_lines (statement_id, line_no, account, booked_on, credit, amount_cents, description, tokens,
      dedupe_key)
    values (${statement.rows[0]!.id}::uuid, 1, 'acct', '2026-11-30', true, 100, 'REF-0', '{REF-0}', ${randomUUID()})
    returning id`.execute(database.db);
  const match = await sql<{ id: string }>`
    insert into bank_matches (method, rule, line_cents, entry_cents, decided_by)
    values ('automatic', 'reference', 100, 100, 'system') returning id`.execute(database.db);
  const lineId = Number(line.rows[0]!.id);
  const matchId = Number(match.rows[0]!.id);
  await run(`insert into bank_match_lines (match_id, line_id, amount_cents) values (${matchId}, ${lineId}, 100)`);
  await run(`insert into bank_match_entries (match_id, batch_id, position, amount_cents)
             values (${matchId}, '${batchId}', ${position}, 100)`);
  return { lineId, matchId };
}

/** A donation of the test partner, as POST /donations stores one. */
async function donation(): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
      donor_email, donor_first_name, donor_last_name, address_postal_code, amount_cents, request_hash, correlation_id)
    values (${'DON-' + randomUUID()}, ${partnerId}::uuid, 'sit', false, 'Storefront App', ${accountId}::uuid,
      '99000001', 'donor@example.org', 'Dee', 'Donor', '3000', 100, 'hash', ${randomUUID()}::uuid)
    returning id`.execute(database.db);
  return rows[0]!.id;
}

/** Claims the bank reference of the entry at `position` of `batchId`, as reconciliation does; returns it. */
async function claim(batchId: string, position: number): Promise<string> {
  const bankReferenceId = `CLAIM-${randomUUID()}`;
  await run(`insert into remittance_bank_references (partner_id, environment, bank_reference_id, batch_id, position,
               amount_cents, donation_ids)
             values ('${partnerId}', 'sit', '${bankReferenceId}', '${batchId}', ${position}, 100, '{DON-0}')`);
  return bankReferenceId;
}

const refused = { code: '23503' };

describe('references checked per statement', () => {
  it('accepts a batch with its entries in one statement, and entries added to it later', async () => {
    const batchId = await batchWith(3);
    await run(`insert into remittance_entries (batch_id, position, bank_reference_id, amount_cents, donation_ids)
               values ('${batchId}', 3, 'REF-3', 100, '{DON-3}')`);
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from remittance_entries where batch_id = ${batchId}::uuid`.execute(database.db);
    expect(rows[0]!.n).toBe('4');
  });

  it('refuses entries of a batch that does not exist, and the whole statement with them', async () => {
    const batchId = await batchWith(1);
    const ghost = randomUUID();
    const insert =
      run(`insert into remittance_entries (batch_id, position, bank_reference_id, amount_cents, donation_ids)
                        values ('${batchId}', 1, 'REF-1', 100, '{DON-1}'), ('${ghost}', 0, 'REF-0', 100, '{DON-0}')`);
    await expect(insert).rejects.toMatchObject(refused);
    await expect(insert).rejects.toThrow(`remittance entry names batch ${ghost}, which does not exist`);
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from remittance_entries where batch_id = ${batchId}::uuid`.execute(database.db);
    expect(rows[0]!.n).toBe('1');
  });

  it('refuses a claim of an entry that does not exist', async () => {
    const batchId = await batchWith(1);
    const claim = (position: number) =>
      run(`insert into remittance_bank_references (partner_id, environment, bank_reference_id, batch_id, position,
             amount_cents, donation_ids)
           values ('${partnerId}', 'sit', 'CLAIM-${randomUUID()}', '${batchId}', ${position}, 100, '{DON-0}')`);
    await expect(claim(0)).resolves.toBeDefined();
    await expect(claim(7)).rejects.toThrow(`bank reference claim names entry ${batchId}:7, which does not exist`);
  });

  it('refuses a settlement of a donation that does not exist, or under a bank reference never claimed', async () => {
    const batchId = await batchWith(1);
    const claimed = await claim(batchId, 0);
    const settle = (donationId: string, bankReferenceId: string) =>
      run(`insert into donation_settlements (donation_id, donation_reference_id, partner_id, environment,
             bank_reference_id, batch_id, position, amount_cents)
           values ('${donationId}', 'DON-${randomUUID()}', '${partnerId}', 'sit', '${bankReferenceId}', '${batchId}', 0,
             100)`);
    const ghost = randomUUID();
    await expect(settle(ghost, claimed)).rejects.toThrow(`settlement names donation ${ghost}, which does not exist`);
    await expect(settle(await donation(), 'NEVER-CLAIMED')).rejects.toThrow(
      'settlement names bank reference NEVER-CLAIMED, which is not claimed',
    );
    const settled = await donation();
    await settle(settled, claimed);
    await expect(run(`delete from donations where id = '${settled}'`)).rejects.toThrow(
      'still referenced from donation_settlements',
    );
    await expect(
      run(`delete from remittance_bank_references where bank_reference_id = '${claimed}'`),
    ).rejects.toMatchObject(refused);
  });

  it('refuses bank lines of a statement that does not exist, and deleting a statement that has lines', async () => {
    const batchId = await batchWith(1);
    const { lineId } = await matchedLine(batchId, 0);
    const ghost = randomUUID();
    const line = run(`insert into bank_lines (statement_id, line_no, account, booked_on, credit, amount_cents,
                        description, tokens, dedupe_key)
                      values ('${ghost}', 1, 'acct', '2026-11-30', true, 100, 'x', '{X}', '${randomUUID()}')`);
    await expect(line).rejects.toThrow(`bank line names statement ${ghost}, which does not exist`);
    await expect(
      run(`delete from bank_statements where id = (select statement_id from bank_lines where id = ${lineId})`),
    ).rejects.toThrow('still referenced from bank_lines');
  });

  it('refuses match links naming a match, a bank line or an entry that does not exist', async () => {
    const batchId = await batchWith(2);
    const { lineId, matchId } = await matchedLine(batchId, 0);
    // Inactive (an undone match's), so that the rule of one active match per line is not what refuses it.
    const lineLink = (match: number, line: number) =>
      run(`insert into bank_match_lines (match_id, line_id, amount_cents, active)
           values (${match}, ${line}, 100, false)`);
    const entryLink = (match: number, position: number) =>
      run(`insert into bank_match_entries (match_id, batch_id, position, amount_cents)
           values (${match}, '${batchId}', ${position}, 100)`);
    await expect(lineLink(matchId + 1000, lineId)).rejects.toThrow(`names match ${matchId + 1000}, which does not`);
    await expect(lineLink(matchId, lineId + 1000)).rejects.toThrow(`names bank line ${lineId + 1000}, which does not`);
    await expect(entryLink(matchId + 1000, 1)).rejects.toThrow(`names match ${matchId + 1000}, which does not`);
    await expect(entryLink(matchId, 9)).rejects.toThrow(`names entry ${batchId}:9, which does not exist`);
    await expect(entryLink(matchId, 1)).resolves.toBeDefined();
    await expect(lineLink(matchId, lineId)).rejects.toThrow('bank_match_lines_pkey');
  });

  it('refuses to delete a row something references, and deletes one nothing references', async () => {
    const batchId = await batchWith(2);
    const { lineId, matchId } = await matchedLine(batchId, 0);
    await expect(run(`delete from remittance_batches where id = '${batchId}'`)).rejects.toMatchObject(refused);
    await expect(run(`delete from remittance_entries where batch_id = '${batchId}' and position = 0`)).rejects.toThrow(
      'still referenced from bank_match_entries',
    );
    await expect(run(`delete from bank_lines where id = ${lineId}`)).rejects.toThrow(
      'still referenced from bank_match_lines',
    );
    await expect(run(`delete from bank_matches where id = ${matchId}`)).rejects.toMatchObject(refused);
    await run(`delete from remittance_entries where batch_id = '${batchId}' and position = 1`);
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from remittance_entries where batch_id = ${batchId}::uuid`.execute(database.db);
    expect(rows[0]!.n).toBe('1');
  });

  it('refuses an update that changes a key on either side, and allows the updates the service makes', async () => {
    const batchId = await batchWith(2);
    const { matchId } = await matchedLine(batchId, 0);
    await expect(
      run(`update remittance_entries set position = 5 where batch_id = '${batchId}' and position = 1`),
    ).rejects.toThrow('the keys of remittance_entries rows never change');
    await expect(run(`update bank_match_entries set position = 1 where match_id = ${matchId}`)).rejects.toMatchObject(
      refused,
    );
    await expect(
      run(`update remittance_batches set id = '${randomUUID()}' where id = '${batchId}'`),
    ).rejects.toMatchObject(refused);
    await run(`update remittance_entries set outcome = 'matched' where batch_id = '${batchId}'`);
    await run(`update bank_match_entries set active = false where match_id = ${matchId}`);
    await run(`update bank_match_lines set active = false where match_id = ${matchId}`);
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from bank_match_entries where match_id = ${matchId} and not active`.execute(
      database.db,
    );
    expect(rows[0]!.n).toBe('1');
  });
});
