import { sql, type Kysely } from 'kysely';
import { crmIdPrefix } from '../../domain/fundraiser-id.js';
import type { Account, DB, Product } from '../db/schema.js';

/**
 * An account by member number or CRM id (15 or 18 characters). A member-number match wins when an id could be
 * read both ways.
 */
export async function findAccount(db: Kysely<DB>, id: string): Promise<Account | undefined> {
  const prefix = crmIdPrefix(id);
  return db
    .selectFrom('accounts')
    .selectAll()
    .where((eb) => (prefix ? eb.or([eb('member_number', '=', id), eb('crm_id15', '=', prefix)]) : eb('member_number', '=', id)))
    .orderBy(sql`member_number = ${id}`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findProduct(db: Kysely<DB>, accountId: string, channel: string): Promise<Product | undefined> {
  return db.selectFrom('products').selectAll().where('account_id', '=', accountId).where('channel', '=', channel).executeTakeFirst();
}

/** Member numbers of the accounts of the given donations that have no activated product for `channel`. */
export async function accountsOfDonationsNotEnrolled(
  db: Kysely<DB>,
  scope: { partnerId: string; environment: string },
  donationReferenceIds: string[],
  channel: string,
): Promise<string[]> {
  if (donationReferenceIds.length === 0) return [];
  const rows = await sql<{ member_number: string }>`
    select distinct a.member_number
    from donations d
    join accounts a on a.id = d.account_id
    left join products p on p.account_id = a.id and p.channel = ${channel}
    where d.reference_id = any(${donationReferenceIds}::text[])
      and d.partner_id = ${scope.partnerId} and d.environment = ${scope.environment}
      and p.status is distinct from 'Activated'
    order by a.member_number`.execute(db);
  return rows.rows.map((row) => row.member_number);
}

export interface AccountInput {
  memberNumber: string;
  crmId?: string | null;
  name: string;
  abn?: string | null;
  products: ProductInput[];
}

export interface ProductInput {
  channel: string;
  description?: string;
  status: string;
  logo?: string | null;
  coverImage?: string | null;
  donationAmountsCents?: number[];
  story?: string | null;
  campaigns?: Record<string, unknown>;
  productEnrollmentId?: string | null;
  enrollmentStatus?: string;
}

/** Inserts or updates an account by member number, and upserts the given products. */
export async function upsertAccount(db: Kysely<DB>, input: AccountInput): Promise<string> {
  const account = await db
    .insertInto('accounts')
    .values({ member_number: input.memberNumber, crm_id: input.crmId ?? null, name: input.name, abn: input.abn ?? null })
    .onConflict((oc) =>
      oc.column('member_number').doUpdateSet({ crm_id: input.crmId ?? null, name: input.name, abn: input.abn ?? null, updated_at: sql`now()` }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const product of input.products) {
    const values = {
      description: product.description ?? '',
      status: product.status,
      logo: product.logo ?? null,
      cover_image: product.coverImage ?? null,
      donation_amounts_cents: product.donationAmountsCents ?? [],
      story: product.story ?? null,
      campaigns: JSON.stringify(product.campaigns ?? {}),
      product_enrollment_id: product.productEnrollmentId ?? null,
      enrollment_status: product.enrollmentStatus ?? 'Enrollment Validated',
    };
    await db
      .insertInto('products')
      .values({ account_id: account.id, channel: product.channel, ...values })
      .onConflict((oc) => oc.columns(['account_id', 'channel']).doUpdateSet({ ...values, updated_at: sql`now()` }))
      .execute();
  }
  return account.id;
}
