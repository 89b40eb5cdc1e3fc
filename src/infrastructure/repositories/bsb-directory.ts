import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface BranchRow {
  bsb: string;
  bankCode: string;
  name: string;
  address: string;
  suburb: string;
  state: string;
  postcode: string;
  payments: string;
}

/** Rows per statement: eight parameters a row, well inside PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 2000;

/** Replaces the directory with these branches; run in the import's transaction, so it is replaced whole or not at all. */
export async function replaceDirectory(trx: Kysely<DB>, branches: readonly BranchRow[], at: Date): Promise<number> {
  const removed = await trx.deleteFrom('bsb_directory').executeTakeFirst();
  for (let from = 0; from < branches.length; from += ROWS_PER_STATEMENT)
    await trx
      .insertInto('bsb_directory')
      .values(
        branches.slice(from, from + ROWS_PER_STATEMENT).map((b) => ({
          bsb: b.bsb,
          bank_code: b.bankCode,
          name: b.name,
          address: b.address,
          suburb: b.suburb,
          state: b.state,
          postcode: b.postcode,
          payments: b.payments,
          imported_at: at,
        })),
      )
      .execute();
  return Number(removed.numDeletedRows);
}

/** Whether any directory was imported: BSBs are then checked against it. */
export async function directoryIsEmpty(db: Kysely<DB>): Promise<boolean> {
  const row = await db.selectFrom('bsb_directory').select('bsb').limit(1).executeTakeFirst();
  return row === undefined;
}

/** The branches of these BSBs that the directory lists, by BSB. */
export async function branchesOf(db: Kysely<DB>, bsbs: readonly string[]): Promise<Map<string, BranchRow>> {
  if (bsbs.length === 0) return new Map();
  const rows = await db
    .selectFrom('bsb_directory')
    .select(['bsb', 'bank_code', 'name', 'address', 'suburb', 'state', 'postcode', 'payments'])
    .where('bsb', 'in', [...new Set(bsbs)])
    .execute();
  return new Map(
    rows.map((r) => [
      r.bsb,
      {
        bsb: r.bsb,
        bankCode: r.bank_code,
        name: r.name,
        address: r.address,
        suburb: r.suburb,
        state: r.state,
        postcode: r.postcode,
        payments: r.payments,
      },
    ]),
  );
}
