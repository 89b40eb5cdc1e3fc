import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { AccountInput, ProductInput } from './accounts.js';

/** Rows per statement: well inside PostgreSQL's 65,535 parameters with every product column bound. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Inserts or updates accounts by member number and upserts their products, a thousand rows per statement (an
 * import of 20,000 accounts is some forty statements, not 40,000). Member numbers must be distinct; a channel
 * listed twice for one account keeps its last product, as one write after the other would. `onWritten` is told the
 * number of accounts written so far after each statement.
 */
export async function upsertAccounts(
  db: Kysely<DB>,
  inputs: readonly AccountInput[],
  onWritten?: (done: number) => void,
): Promise<void> {
  for (let from = 0; from < inputs.length; from += ROWS_PER_STATEMENT) {
    const chunk = inputs.slice(from, from + ROWS_PER_STATEMENT);
    const ids = await db
      .insertInto('accounts')
      .values(
        chunk.map((input) => ({
          member_number: input.memberNumber,
          crm_id: input.crmId ?? null,
          name: input.name,
          abn: input.abn ?? null,
        })),
      )
      .onConflict((oc) =>
        oc.column('member_number').doUpdateSet((eb) => ({
          crm_id: eb.ref('excluded.crm_id'),
          name: eb.ref('excluded.name'),
          abn: eb.ref('excluded.abn'),
          updated_at: sql`now()`,
        })),
      )
      .returning(['id', 'member_number'])
      .execute();
    const idOf = new Map(ids.map((row) => [row.member_number, row.id]));
    await upsertProducts(db, chunk, idOf);
    onWritten?.(from + chunk.length);
  }
}

async function upsertProducts(db: Kysely<DB>, accounts: readonly AccountInput[], idOf: Map<string, string>) {
  const byKey = new Map<string, ProductRow>();
  for (const input of accounts)
    for (const product of input.products) {
      const accountId = idOf.get(input.memberNumber)!;
      byKey.set(`${accountId}:${product.channel}`, productRow(accountId, product));
    }
  const rows = [...byKey.values()];
  for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
    await db
      .insertInto('products')
      .values(rows.slice(from, from + ROWS_PER_STATEMENT))
      .onConflict((oc) =>
        oc.columns(['account_id', 'channel']).doUpdateSet((eb) => ({
          description: eb.ref('excluded.description'),
          status: eb.ref('excluded.status'),
          logo: eb.ref('excluded.logo'),
          cover_image: eb.ref('excluded.cover_image'),
          donation_amounts_cents: eb.ref('excluded.donation_amounts_cents'),
          story: eb.ref('excluded.story'),
          campaigns: eb.ref('excluded.campaigns'),
          product_enrollment_id: eb.ref('excluded.product_enrollment_id'),
          enrollment_status: eb.ref('excluded.enrollment_status'),
          updated_at: sql`now()`,
        })),
      )
      .execute();
  }
}

type ProductRow = ReturnType<typeof productRow>;

function productRow(accountId: string, product: ProductInput) {
  return {
    account_id: accountId,
    channel: product.channel,
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
}
