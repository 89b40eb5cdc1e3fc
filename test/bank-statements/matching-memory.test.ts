import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/infrastructure/db/schema.js';
import { lockBankMatching } from '../../src/infrastructure/repositories/bank-statements.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Bank matching's sorts get 64 MB on PostgreSQL and 4 MB on the embedded database, whose WebAssembly memory never
 * shrinks (docs/decisions/0048-embedded-statement-import-memory.md); either way only for the matching transaction.
 */
describe('memory of bank matching', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const workMem = async (db: Kysely<DB>) =>
    (await sql<{ w: string }>`select current_setting('work_mem') as w`.execute(db)).rows[0]!.w;

  it('sizes the sorts by the database and gives the memory back with the transaction', async () => {
    const before = await workMem(t.db);
    const during = await t.db.transaction().execute(async (trx) => {
      await lockBankMatching(trx);
      return workMem(trx);
    });
    expect(during).toBe(t.database.kind === 'embedded' ? '4MB' : '64MB');
    expect(await workMem(t.db)).toBe(before);
  });
});
