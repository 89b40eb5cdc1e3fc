import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseExecutor } from '../../src/infrastructure/queue/sql-executor.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * pg-boss completes a worker's jobs without awaiting that statement, so the queue's stop() waits for the statements
 * of its executor to settle before the database may be closed (src/infrastructure/queue/sql-executor.ts).
 */
describe('the queue executor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('settles only after every statement it started has finished, failed ones included', async () => {
    const executor = databaseExecutor(t.database);
    const order: string[] = [];
    void executor
      .executeSql('select count(*) as n from generate_series(1, $1::int)', [200_000])
      .then(() => order.push('counted'));
    void executor.executeSql('select 1 / $1::int as n', [0]).catch(() => order.push('refused'));
    await executor.settled();
    order.push('settled');
    // On PostgreSQL the two run on two connections, in either order; both finish before settled() resolves.
    expect(order.slice(0, 2).sort()).toEqual(['counted', 'refused']);
    expect(order[2]).toBe('settled');
    await executor.settled();
    expect(order).toHaveLength(3);
  });

  it("answers a job's outcome that could not be recorded as no job changed, and reports it", async () => {
    // pg-boss's own texts (its plans, as its worker sends them), on a schema that does not exist: every one fails.
    const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as Record<
      string,
      (schema: string) => string
    > & {
      fetchNextJob: (schema: string) => (options: object) => string;
    };
    const lost: unknown[] = [];
    const executor = databaseExecutor(t.database, { onLostJobOutcome: (err) => lost.push(err) });
    const args = ['a-queue', ['00000000-0000-4000-8000-000000000000'], null];
    for (const outcome of [plans.completeJobs!('no_such_schema'), plans.failJobsById!('no_such_schema')])
      expect(await executor.executeSql(outcome, args)).toEqual({ rows: [{ count: '0' }] });
    expect(lost).toHaveLength(2);
    // Anything else pg-boss sends and awaits still fails as it failed: its fetch, and the maintenance's expiry.
    const fetch = plans.fetchNextJob('no_such_schema')({});
    expect(fetch).toContain('no_such_schema.job');
    await expect(executor.executeSql(fetch, ['q', 1])).rejects.toThrow(/no_such_schema/);
    await expect(executor.executeSql(plans.failJobsByTimeout!('no_such_schema'), [1])).rejects.toThrow(
      /no_such_schema/,
    );
    expect(lost).toHaveLength(2);
  });
});
