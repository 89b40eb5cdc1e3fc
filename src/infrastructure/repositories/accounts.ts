import { CompiledQuery, sql, type Kysely } from 'kysely';
import { crmIdPrefix } from '../../domain/fundraiser-id.js';
import type { Account, DB, Product } from '../db/schema.js';
import { slices } from './slices.js';

// The look-ups below run on every account and fundraiser request, so their statements are written out once rather
// than built per call (building and compiling them with the query builder cost 25-40 µs of CPU each time). An id
// that cannot be a CRM id (the usual member number) gets a statement without the CRM branch: without the OR and
// the ordering PostgreSQL plans and runs it in about half the time (~70 -> ~35 µs).
const WHERE_ID = {
  /** $1: the member number. */
  memberNumber: 'a.member_number = $1',
  /** $1: the id, $2: its 15-character CRM prefix. A member-number match wins when the id could be read both ways. */
  memberNumberOrCrmId: 'a.member_number = $1 or a.crm_id15 = $2 order by a.member_number = $1 desc',
};
type IdForm = keyof typeof WHERE_ID;

const FIND_ACCOUNT: Record<IdForm, string> = {
  memberNumber: `select * from accounts a where ${WHERE_ID.memberNumber} limit 1`,
  memberNumberOrCrmId: `select * from accounts a where ${WHERE_ID.memberNumberOrCrmId} limit 1`,
};
const FIND_PRODUCT = 'select * from products where account_id = $1 and channel = $2';

function idLookup(id: string): { form: IdForm; parameters: string[] } {
  const prefix = crmIdPrefix(id);
  return prefix === null
    ? { form: 'memberNumber', parameters: [id] }
    : { form: 'memberNumberOrCrmId', parameters: [id, prefix] };
}

/**
 * An account by member number or CRM id (15 or 18 characters). A member-number match wins when an id could be
 * read both ways.
 */
export async function findAccount(db: Kysely<DB>, id: string): Promise<Account | undefined> {
  const { form, parameters } = idLookup(id);
  const { rows } = await db.executeQuery<Account>(CompiledQuery.raw(FIND_ACCOUNT[form], parameters));
  return rows[0];
}

interface AccountWithProductRow {
  id: string;
  member_number: string;
  crm_id: string | null;
  crm_id15: string | null;
  name: string;
  abn: string | null;
  created_at: Date;
  updated_at: Date;
  p_account_id: string | null;
  p_channel: string | null;
  p_description: string | null;
  p_status: string | null;
  p_logo: string | null;
  p_cover_image: string | null;
  p_donation_amounts_cents: number[] | null;
  p_story: string | null;
  p_campaigns: Record<string, unknown> | null;
  p_product_enrollment_id: string | null;
  p_enrollment_status: string | null;
  p_updated_at: Date | null;
}

// findAccount's look-up with the product of one channel joined; the channel is the parameter after the id's.
const accountWithProduct = (form: IdForm, channelParameter: string) => `
  select a.id, a.member_number, a.crm_id, a.crm_id15, a.name, a.abn, a.created_at, a.updated_at,
    p.account_id as p_account_id, p.channel as p_channel, p.description as p_description, p.status as p_status,
    p.logo as p_logo, p.cover_image as p_cover_image, p.donation_amounts_cents as p_donation_amounts_cents,
    p.story as p_story, p.campaigns as p_campaigns, p.product_enrollment_id as p_product_enrollment_id,
    p.enrollment_status as p_enrollment_status, p.updated_at as p_updated_at
  from accounts a
  left join products p on p.account_id = a.id and p.channel = ${channelParameter}
  where ${WHERE_ID[form]}
  limit 1`;
const FIND_ACCOUNT_WITH_PRODUCT: Record<IdForm, string> = {
  memberNumber: accountWithProduct('memberNumber', '$2'),
  memberNumberOrCrmId: accountWithProduct('memberNumberOrCrmId', '$3'),
};

/**
 * The account named by `id` (as findAccount reads it) and its product for `channel`, in one round trip: the
 * enrolment check runs on every fundraiser look-up and donation, so it is one query, not two.
 */
export async function findAccountWithProduct(
  db: Kysely<DB>,
  id: string,
  channel: string,
): Promise<{ account: Account; product: Product | undefined } | undefined> {
  const { form, parameters } = idLookup(id);
  const { rows } = await db.executeQuery<AccountWithProductRow>(
    CompiledQuery.raw(FIND_ACCOUNT_WITH_PRODUCT[form], [...parameters, channel]),
  );
  const row = rows[0];
  if (!row) return undefined;
  const account: Account = {
    id: row.id,
    member_number: row.member_number,
    crm_id: row.crm_id,
    crm_id15: row.crm_id15,
    name: row.name,
    abn: row.abn,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
  // account_id is part of the product's primary key: null only when the left join found no product.
  const product: Product | undefined =
    row.p_account_id === null
      ? undefined
      : {
          account_id: row.p_account_id,
          channel: row.p_channel!,
          description: row.p_description!,
          status: row.p_status!,
          logo: row.p_logo,
          cover_image: row.p_cover_image,
          donation_amounts_cents: row.p_donation_amounts_cents!,
          story: row.p_story,
          campaigns: row.p_campaigns!,
          product_enrollment_id: row.p_product_enrollment_id,
          enrollment_status: row.p_enrollment_status!,
          updated_at: row.p_updated_at!,
        };
  return { account, product };
}

export async function findProduct(db: Kysely<DB>, accountId: string, channel: string): Promise<Product | undefined> {
  const { rows } = await db.executeQuery<Product>(CompiledQuery.raw(FIND_PRODUCT, [accountId, channel]));
  return rows[0];
}

/** Member numbers of the accounts of the given donations that have no activated product for `channel`. */
export async function accountsOfDonationsNotEnrolled(
  db: Kysely<DB>,
  scope: { partnerId: string; environment: string },
  donationReferenceIds: string[],
  channel: string,
): Promise<string[]> {
  // 5,000 ids per statement: one array parameter of 100,000 ids (a big batch) is megabytes of text built at once.
  const memberNumbers = new Set<string>();
  for (const { slice } of slices(donationReferenceIds, IDS_PER_STATEMENT))
    for (const member of await notEnrolledAmong(db, scope, slice, channel)) memberNumbers.add(member);
  return [...memberNumbers].sort();
}

const IDS_PER_STATEMENT = 5000;

async function notEnrolledAmong(
  db: Kysely<DB>,
  scope: { partnerId: string; environment: string },
  donationReferenceIds: string[],
  channel: string,
): Promise<string[]> {
  // One probe of the reference's unique index per id, in a LATERAL subquery that LIMIT 1 keeps from being flattened:
  // given `any(ids)` and the partner, PostgreSQL 15 on stale statistics intersected the ids with a bitmap of all of
  // the partner's donations, a cost that grows with every donation the partner ever made (repositories/reconciliation.ts).
  const rows = await sql<{ member_number: string }>`
    select distinct a.member_number
    from unnest(${donationReferenceIds}::text[]) as k(reference_id)
    cross join lateral (
      select d.account_id from donations d
      where d.reference_id = k.reference_id and d.partner_id = ${scope.partnerId} and d.environment = ${scope.environment}
      limit 1
    ) as d
    join accounts a on a.id = d.account_id
    left join products p on p.account_id = a.id and p.channel = ${channel}
    where p.status is distinct from 'Activated'
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
