import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  const workMem = async () =>
    (await sql<{ w: string }>`select current_setting('work_mem') as w`.execute(t.db)).rows[0]!.w;

  it('sizes the sorts by the database and gives the memory back with the transaction', async () => {
    const before = await workMem();
    const during = await t.db.transaction().execute(async (trx) => {
      await lockBankMatching(trx);
      return (await sql<{ w: string }>`select current_setting('work_mem') as w`.execute(trx)).rows[0]!.w;
    });
    expect(during).toBe(t.database.kind === 'embedded' ? '4MB' : '64MB');
    expect(await workMem()).toBe(before);
  });
});
