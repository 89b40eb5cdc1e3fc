import { sql, type Insertable, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { everyColumn } from '../db/columns.js';
import type { DB } from '../db/schema.js';
import type { ReceiptIssuersTable, ReceiptRow, ReceiptsTable } from '../db/schema-receipts.js';

/** The terms of issue, as the register names them. */
export interface IssuerRow {
  id: string;
  legal_name: string;
  abn: string;
  dgr_statement: string;
  minimum_cents: number;
  time_zone: string;
}

/** The terms a receipt is issued under: who issues it, the minimum and the time zone of its dates. */
export interface IssuerTerms {
  legalName: string;
  abn: string;
  dgrStatement: string;
  minimumCents: number;
  timeZone: string;
}

/** The id of the issuer row of these terms as a scalar subquery (null until the row exists), to read in passing. */
export const existingIssuerId = (terms: IssuerTerms): RawBuilder<string | null> => sql<string | null>`(
  select id::text from receipt_issuers
  where legal_name = ${terms.legalName} and abn = ${terms.abn} and dgr_statement = ${terms.dgrStatement}
    and minimum_cents = ${terms.minimumCents} and time_zone = ${terms.timeZone})`;

/**
 * The issuer row of these terms, created the first time they are used. Read first: every settlement asks, and an
 * upsert that updates the existing row would lock it until the settling transaction commits, so concurrent
 * reconciliations would wait for one another there.
 */
export async function issuerId(trx: Kysely<DB>, terms: IssuerTerms): Promise<string> {
  const row = {
    legal_name: terms.legalName,
    abn: terms.abn,
    dgr_statement: terms.dgrStatement,
    minimum_cents: terms.minimumCents,
    time_zone: terms.timeZone,
  };
  const find = () =>
    trx
      .selectFrom('receipt_issuers')
      .select('id')
      .where('legal_name', '=', row.legal_name)
      .where('abn', '=', row.abn)
      .where('dgr_statement', '=', row.dgr_statement)
      .where('minimum_cents', '=', String(row.minimum_cents))
      .where('time_zone', '=', row.time_zone)
      .executeTakeFirst();
  const found = await find();
  if (found) return String(found.id);
  const inserted = await trx
    .insertInto('receipt_issuers')
    .values(row)
    .onConflict((oc) => oc.columns(['legal_name', 'abn', 'dgr_statement', 'minimum_cents', 'time_zone']).doNothing())
    .returning('id')
    .executeTakeFirst();
  // Nothing inserted: another transaction created the row meanwhile, and its commit made it visible to this read.
  return String(inserted?.id ?? (await find())!.id);
}

export async function findIssuer(db: Kysely<DB>, id: string): Promise<IssuerRow> {
  return issuerRow(await db.selectFrom('receipt_issuers').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

const issuerRow = (row: Selectable<DB['receipt_issuers']>): IssuerRow => ({
  ...row,
  id: String(row.id),
  minimum_cents: Number(row.minimum_cents),
});

// The batch look-ups below run for every batch of mail: one text whatever the count, columns written out, so that
// each connection prepares them once (docs/decisions/0052-repeated-statements-prepared.md).
const ISSUER_COLUMNS = everyColumn<ReceiptIssuersTable>()(
  'id',
  'legal_name',
  'abn',
  'dgr_statement',
  'minimum_cents',
  'time_zone',
);
const RECEIPT_COLUMNS = everyColumn<ReceiptsTable>()(
  'id',
  'number',
  'series',
  'financial_year',
  'sequence',
  'issuer_id',
  'donation_id',
  'donation_reference_id',
  'partner_id',
  'environment',
  'amount_cents',
  'gift_date',
  'donor_name',
  'donor_business_name',
  'donor_email',
  'fundraiser_name',
  'fundraiser_id',
  'issued_at',
  'issue_reason',
  'replaces_id',
  'voided_at',
  'void_reason',
  'voided_by',
);

/** The issuer rows of these ids, by id. */
export async function issuersByIds(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, IssuerRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('receipt_issuers')
    .select(ISSUER_COLUMNS)
    .where('id', '=', sql<string>`any(${[...new Set(ids)]}::bigint[])`)
    .execute();
  return new Map(rows.map((row) => [String(row.id), issuerRow(row)]));
}

/** The next `count` numbers of a series' year: the first of them. The counter row stays locked until commit. */
export async function allocateNumbers(trx: Kysely<DB>, series: string, year: string, count: number): Promise<number> {
  const { rows } = await sql<{ last_number: number }>`
    insert into receipt_counters (series, financial_year, last_number) values (${series}, ${year}, ${count})
    on conflict (series, financial_year) do update set last_number = receipt_counters.last_number + excluded.last_number
    returning last_number`.execute(trx);
  return Number(rows[0]!.last_number) - count + 1;
}

export async function insertReceipt(trx: Kysely<DB>, row: Insertable<ReceiptsTable>): Promise<ReceiptRow> {
  return trx.insertInto('receipts').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The donation's receipt in force, row-locked: a void or reissue of it is decided once. */
export function lockReceiptInForce(trx: Kysely<DB>, donationId: string): Promise<ReceiptRow | undefined> {
  return trx
    .selectFrom('receipts')
    .selectAll()
    .where('donation_id', '=', donationId)
    .where('voided_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** Voids a receipt in force (the only change a receipt ever takes); undefined when it was void already. */
export function voidReceipt(
  trx: Kysely<DB>,
  id: string,
  voiding: { reason: string; by: string; at?: Date },
): Promise<ReceiptRow | undefined> {
  return trx
    .updateTable('receipts')
    .set({ voided_at: voiding.at ?? sql<Date>`now()`, void_reason: voiding.reason, voided_by: voiding.by })
    .where('id', '=', id)
    .where('voided_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export function receiptById(db: Kysely<DB>, id: string): Promise<ReceiptRow | undefined> {
  return db.selectFrom('receipts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The receipts of these ids, by id (an id without a receipt is absent). */
export async function receiptsByIds(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, ReceiptRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('receipts')
    .select(RECEIPT_COLUMNS)
    .where('id', '=', sql<string>`any(${[...new Set(ids)]}::uuid[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export function receiptByNumber(db: Kysely<DB>, number: string): Promise<ReceiptRow | undefined> {
  return db.selectFrom('receipts').selectAll().where('number', '=', number).executeTakeFirst();
}

/** Every receipt of a donation, oldest first (by reference id), optionally only a partner's own. */
export function receiptsOfDonation(
  db: Kysely<DB>,
  referenceId: string,
  owner?: { partnerId: string; environment: string },
): Promise<ReceiptRow[]> {
  let query = db.selectFrom('receipts').selectAll().where('donation_reference_id', '=', referenceId);
  if (owner) query = query.where('partner_id', '=', owner.partnerId).where('environment', '=', owner.environment);
  return query.orderBy('issued_at').orderBy('sequence').execute();
}

/** Receipts made out to an e-mail address (any case), newest first. */
export function receiptsOfEmail(db: Kysely<DB>, email: string, limit: number): Promise<ReceiptRow[]> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where(sql<string>`lower(donor_email)`, '=', email.toLowerCase())
    .orderBy('issued_at', 'desc')
    .limit(limit)
    .execute();
}

/** A series' register for one financial year, in number order, a page at a time (keyset on the sequence). */
export function registerPage(
  db: Kysely<DB>,
  filter: { series: string; year: string; after: number; limit: number },
): Promise<ReceiptRow[]> {
  return db
    .selectFrom('receipts')
    .selectAll()
    .where('series', '=', filter.series as 'live' | 'sample')
    .where('financial_year', '=', filter.year)
    .where('sequence', '>', filter.after)
    .orderBy('sequence')
    .limit(filter.limit)
    .execute();
}

/** The number of the receipt `id` names (what a reissue replaces). */
export async function receiptNumberOf(db: Kysely<DB>, id: string | null): Promise<string | null> {
  if (!id) return null;
  return (await db.selectFrom('receipts').select('number').where('id', '=', id).executeTakeFirst())?.number ?? null;
}

/** Records an operator's correction of a donation's donor details: what its receipts name from then on. */
export async function insertDonorCorrection(trx: Kysely<DB>, row: Insertable<DB['donor_corrections']>): Promise<void> {
  await trx.insertInto('donor_corrections').values(row).execute();
}
