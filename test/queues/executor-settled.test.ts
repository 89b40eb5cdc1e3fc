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
});
