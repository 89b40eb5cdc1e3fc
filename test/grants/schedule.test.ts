import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scheduleAt } from '../../src/domain/grants/schedule.js';
import { GrantRoundsWorker } from '../../src/services/grants/rounds/schedule-worker.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { waitUntil } from '../reconciliation/support.js';
import { CLUB, settledDonations, termsOf, verifiedDetails } from './support.js';

/** The schedule drafts each scheduled day's round once, whatever instances run it (docs/grants.md, "The rhythm"). */
describe('the grant rounds schedule', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
  });
  afterEach(() => t.close());

  const worker = () => new GrantRoundsWorker(t.jobQueue, t.database, termsOf(t), () => new Date());

  it('two instances at once draft the due day once, by the schedule', async () => {
    await verifiedDetails(t.db, CLUB.storefront);
    await settledDonations(t, [25]);
    const due = scheduleAt(new Date(), termsOf(t).schedule, t.config.FOUNDATION_TIME_ZONE).due;
    const [a, b] = await Promise.all([worker().run(), worker().run()]);
    expect([a.outcome, b.outcome].sort()).toEqual(['drafted', 'exists']);
    const rounds = await t.db.selectFrom('grant_rounds').select(['number', 'scheduled_on', 'drafted_by']).execute();
    expect(rounds).toEqual([{ number: 1, scheduled_on: due, drafted_by: 'schedule' }]);
    // Run again the same day: nothing more.
    expect(await worker().run()).toEqual({ day: due, outcome: 'exists', round: 1 });
  });

  it('runs on the queue, one run at a time across instances, and schedules the next scheduled day', async () => {
    const workers = [worker(), worker()];
    await Promise.all(workers.map((w) => w.start()));
    await waitUntil(async () => (await t.db.selectFrom('grant_rounds').selectAll().execute()).length === 1, {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: 'the scheduled round',
    });
    const { nextAt } = scheduleAt(new Date(), termsOf(t).schedule, t.config.FOUNDATION_TIME_ZONE);
    await waitUntil(
      async () => {
        const { rows } = await sql<{ start_after: Date }>`
          select start_after from pgboss.job where name = 'grant-rounds' and state = 'created'`.execute(t.db);
        return rows.length === 1 && Math.abs(new Date(rows[0]!.start_after).getTime() - nextAt.getTime()) < 5_000;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'the next run at the next scheduled day' },
    );
    const rounds = await t.db.selectFrom('grant_rounds').select(['drafted_by']).execute();
    expect(rounds).toEqual([{ drafted_by: 'schedule' }]);
  });
});
