import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { migrate } from '../../src/infrastructure/db/migrate.js';
import { RECONCILIATION_QUEUE } from '../../src/infrastructure/queue/queues.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';
import { donationBody, type CallOptions, type TestApp } from '../helpers/test-app.js';
import { embeddedTemplate } from '../helpers/templates.js';

/** Records a donation for the caller (Storefront by default); `amount: null` records one without an amount. */
export async function donate(
  t: TestApp,
  amount: string | null,
  options: { fundraiserId?: string; channel?: string; as?: CallOptions['as'] } = {},
) {
  const body = donationBody({
    ...(amount === null ? {} : { amount }),
    fundraiserId: options.fundraiserId,
    channel: options.channel,
  });
  if (amount === null) delete (body.transaction as { amount?: string }).amount;
  const response = await t.post('/donations', body, { as: options.as });
  if (response.statusCode !== 200) throw new Error(`donation refused: ${response.body}`);
  return response.json().data.items.donationReferenceId as string;
}

export interface Entry {
  bankReferenceId: string;
  amount: number;
  donationIds: string[];
}

export const bankReference = () => `BANK-${randomUUID().slice(0, 13)}`;

/**
 * A batch with every rule that looks back at earlier entries of the same batch: four fresh donations (10, 20, 30,
 * 40.00) and seven entries, whose outcomes are, in order, matched, matched, amount_mismatch, already_settled,
 * duplicate_bank_reference, matched, unknown_donation.
 */
export async function mixedBatch(t: TestApp) {
  const [a, b, c, d] = [
    await donate(t, '10.00'),
    await donate(t, '20.00'),
    await donate(t, '30.00'),
    await donate(t, '40.00'),
  ];
  const refA = bankReference();
  const entries: Entry[] = [
    { bankReferenceId: refA, amount: 10, donationIds: [a] },
    { bankReferenceId: bankReference(), amount: 50, donationIds: [b, c] },
    { bankReferenceId: bankReference(), amount: 41, donationIds: [d] },
    { bankReferenceId: bankReference(), amount: 20, donationIds: [b] },
    { bankReferenceId: refA, amount: 11, donationIds: [a] },
    { bankReferenceId: refA, amount: 10, donationIds: [a] },
    { bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-MISSING'] },
  ];
  return { donations: [a, b, c, d] as const, entries };
}

/** Posts a batch and returns its id (202 expected). */
export async function postBatch(
  t: TestApp,
  remittances: Entry[],
  options: { channel?: string; fundraiserId?: string; as?: CallOptions['as']; headers?: CallOptions['headers'] } = {},
) {
  const body = {
    source: { channel: options.channel ?? 'Storefront App', fundraiserId: options.fundraiserId ?? '10000001' },
    remittances,
  };
  const response = await t.post('/remittances', body, { as: options.as, headers: options.headers });
  if (response.statusCode !== 202) throw new Error(`batch refused: ${response.body}`);
  return response.json().data.items.batchId as string;
}

/** The report of GET /remittances/{batchId} (200 expected). */
export async function report(t: TestApp, batchId: string, as?: CallOptions['as']) {
  const response = await t.get(`/remittances/${batchId}`, { as });
  if (response.statusCode !== 200) throw new Error(`report refused: ${response.body}`);
  return response.json().data.items as {
    batchId: string;
    status: string;
    counts: {
      entries: number;
      pending: number;
      matched: number;
      exceptions: number;
      byOutcome: Record<string, number>;
    };
    entries: {
      index: number;
      bankReferenceId: string;
      amount: number;
      donationIds: string[];
      outcome: string | null;
      detail: string | null;
    }[];
  };
}

export const outcomes = (r: Awaited<ReturnType<typeof report>>) => r.entries.map((e) => e.outcome);

export async function settlementsOf(db: Database['db'], referenceIds: string[]) {
  if (referenceIds.length === 0) return [];
  return db
    .selectFrom('donation_settlements')
    .selectAll()
    .where('donation_reference_id', 'in', referenceIds)
    .orderBy('donation_reference_id')
    .execute();
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false>,
  { timeoutMs = 15_000, intervalMs = 25, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * A database that outlives the processes using it, for restart and crash tests: a fresh database on the
 * PostgreSQL server of TEST_DATABASE_URL, or an embedded data directory on disk. `open()` connects (again).
 */
export async function createDurableDatabase() {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'fx-recon-'));
    const first = await connectDatabase({ dataDir, embeddedTemplate: await embeddedTemplate() });
    await migrate(first);
    await first.close();
    return {
      kind: 'embedded' as const,
      dataDir,
      env: { DATA_DIR: dataDir } as Record<string, string>,
      open: () => connectDatabase({ dataDir }),
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const scratch = await createScratchPostgresDatabase(serverUrl, 'fx_recon');
  const databaseUrl = scratch.url;
  const first = await connectDatabase({ databaseUrl, poolMax: 5 });
  await migrate(first);
  await first.close();
  return {
    kind: 'postgres' as const,
    dataDir: null,
    env: { DATABASE_URL: databaseUrl } as Record<string, string>,
    open: () => connectDatabase({ databaseUrl, poolMax: 5 }),
    dispose: () => scratch.drop(),
  };
}

/** The partner behind a client id (for writing fixtures straight into the database). */
export async function partnerOf(db: Database['db'], clientId: string) {
  const row = await db
    .selectFrom('credentials')
    .select(['partner_id', 'environment'])
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return { partnerId: row.partner_id, environment: row.environment };
}

/**
 * Inserts `count` donations of `amountCents` each for fundraiser 10000001 in one statement (HTTP would take
 * minutes for benchmark sizes) and returns their reference ids, in order.
 */
export async function insertDonations(
  db: Database['db'],
  owner: { partnerId: string; environment: string },
  count: number,
  amountCents: number,
  prefix = `DON-${randomBytes(3).toString('hex')}-`,
) {
  const { rows } = await sql<{ reference_id: string }>`
    insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id, donor_email,
                           donor_first_name, donor_last_name, address_postal_code, amount_cents, request_hash, correlation_id)
    select ${prefix} || lpad(i::text, 7, '0'), ${owner.partnerId}::uuid, ${owner.environment}, false, 'Storefront App', a.id, '10000001',
           'bulk@example.com', 'Bulk', 'Donor', '2000', ${amountCents}, 'bulk', gen_random_uuid()
    from generate_series(1, ${count}) as i, accounts a
    where a.member_number = '10000001'
    order by i
    returning reference_id`.execute(db);
  return rows.map((r) => r.reference_id).sort();
}

/** The queue's jobs for a batch (main and dead-letter queues), oldest first. */
export async function jobsOf(db: Database['db'], batchId: string) {
  const { rows } = await sql<{ name: string; state: string; retry_count: number; start_after: Date; output: unknown }>`
    select name, state, retry_count, start_after, output from pgboss.job where data->>'batchId' = ${batchId} order by created_on, name`.execute(
    db,
  );
  return rows;
}

/** Short expiry and retry delay, so that a crashed run is retried within seconds (the defaults are minutes). */
export const FAST_RETRY_POLICIES = { [RECONCILIATION_QUEUE]: { expireInSeconds: 3, retryDelaySeconds: 1 } };
