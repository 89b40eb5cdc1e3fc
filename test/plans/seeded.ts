import { afterAll, beforeAll, expect } from 'vitest';
import { usingPostgres } from '../helpers/database.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { partnerOf } from '../reconciliation/support.js';
import { seedHistory } from './history.js';
import { DEFAULT_HISTORY, openRecordedDatabase, PlanRecorder, type RecordedPlan } from './support.js';

/** Why a plan test file is skipped on the embedded database, or null on PostgreSQL. */
export const planSkip = usingPostgres()
  ? null
  : 'PostgreSQL only: set TEST_DATABASE_URL (plans are read from a server with a seeded history)';

/**
 * The app of a plan test file on a database whose every statement is explained as it runs, seeded with the default
 * history before the file's tests (and closed after them); `recorded` gives the plans of what `work` ran, having
 * checked there were at least `atLeast` and that EXPLAIN took each.
 */
export function seededHistory() {
  const recorder = new PlanRecorder();
  let database: Awaited<ReturnType<typeof openRecordedDatabase>> | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    database = await openRecordedDatabase(recorder);
    t = await startTestApp({ database });
    await seedHistory(t.db, await partnerOf(t.db, t.storefront.clientId), DEFAULT_HISTORY);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await database?.dispose();
  });
  return {
    app: (): TestApp => t!,
    recorded: async (work: () => Promise<unknown>, atLeast: number): Promise<RecordedPlan[]> => {
      const refusedBefore = recorder.refused.length;
      const plans = await recorder.during(work);
      expect(recorder.refused.slice(refusedBefore)).toEqual([]);
      expect(plans.length).toBeGreaterThanOrEqual(atLeast);
      return plans;
    },
  };
}
