import { sql, type Kysely } from 'kysely';
import type { DB, Product } from '../db/schema.js';
import { slices } from './slices.js';

/** Operator views and changes of fundraiser accounts (reference data); the API's reads are in accounts.ts. */

const CHUNK = 1000;

/** Which of these member numbers already exist. */
export async function existingMemberNumbers(db: Kysely<DB>, memberNumbers: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const { slice: part } of slices(memberNumbers, CHUNK)) {
    const rows = await db.selectFrom('accounts').select('member_number').where('member_number', 'in', part).execute();
    for (const row of rows) found.add(row.member_number);
  }
  return found;
}

/** Existing accounts holding one of these 15-character CRM id prefixes (unique across accounts). */
export async function accountsByCrmPrefix(db: Kysely<DB>, prefixes: readonly string[]): Promise<Map<string, string>> {
  const byPrefix = new Map<string, string>();
  for (const { slice: part } of slices(prefixes, CHUNK)) {
    const rows = await db
      .selectFrom('accounts')
      .select(['crm_id15', 'member_number'])
      .where('crm_id15', 'in', part)
      .execute();
    for (const row of rows) byPrefix.set(row.crm_id15!, row.member_number);
  }
  return byPrefix;
}

export interface AccountSummary {
  id: string;
  memberNumber: string;
  crmId: string | null;
  name: string;
  abn: string | null;
  products: { channel: string; status: string }[];
  updatedAt: Date;
}

export async function listAccountSummaries(
  db: Kysely<DB>,
  filter: { search?: string; channel?: string; limit: number },
): Promise<AccountSummary[]> {
  let query = db.selectFrom('accounts as a').select([
    'a.id',
    'a.member_number as memberNumber',
    'a.crm_id as crmId',
    'a.name',
    'a.abn',
    'a.updated_at as updatedAt',
    sql<
      { channel: string; status: string }[]
    >`coalesce((select json_agg(json_build_object('channel', p.channel, 'status', p.status) order by p.channel)
        from products p where p.account_id = a.id), '[]'::json)`.as('products'),
  ]);
  if (filter.search) {
    const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('a.name', 'ilike', pattern),
        eb('a.member_number', 'ilike', pattern),
        eb('a.crm_id', 'ilike', pattern),
      ]),
    );
  }
  if (filter.channel) {
    const channel = filter.channel;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('products as p')
          .select('p.channel')
          .whereRef('p.account_id', '=', 'a.id')
          .where('p.channel', '=', channel),
      ),
    );
  }
  return query.orderBy('a.member_number').limit(filter.limit).execute();
}

export async function listProductsOf(db: Kysely<DB>, accountId: string): Promise<Product[]> {
  const rows = await db
    .selectFrom('products')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('channel')
    .execute();
  // node-postgres returns bigint[] elements as strings (only scalar bigint is parsed as a number in connect.ts).
  return rows.map((row) => ({ ...row, donation_amounts_cents: row.donation_amounts_cents.map(Number) }));
}

export async function updateProductStatus(
  db: Kysely<DB>,
  accountId: string,
  channel: string,
  changes: { status: string; enrollmentStatus?: string },
  at: Date,
): Promise<void> {
  await db
    .updateTable('products')
    .set({
      status: changes.status,
      ...(changes.enrollmentStatus ? { enrollment_status: changes.enrollmentStatus } : {}),
      updated_at: at,
    })
    .where('account_id', '=', accountId)
    .where('channel', '=', channel)
    .execute();
}

export type { Product };
