import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutoffOf, scheduleAt } from '../../src/domain/grants/schedule.js';
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

  /** A donation settled before the due day's cut-off (the start of that day): what its round pays. */
  async function settledBeforeTheDueDay() {
    await settledDonations(t, [25]);
    const { due } = scheduleAt(new Date(), termsOf(t).schedule, t.config.FOUNDATION_TIME_ZONE);
    const before = new Date(cutoffOf(due, t.config.FOUNDATION_TIME_ZONE).getTime() - 3_600_000);
    await t.db.updateTable('donation_settlements').set({ settled_at: before }).execute();
  }

  it('two instances at once draft the due day once, by the schedule', async () => {
    await verifiedDetails(t.db, CLUB.storefront);
    await settledBeforeTheDueDay();
    const due = scheduleAt(new Date(), termsOf(t).schedule, t.config.FOUNDATION_TIME_ZONE).due;
    const [a, b] = await Promise.all([worker().run(), worker().run()]);
    expect([a.outcome, b.outcome].sort()).toEqual(['drafted', 'exists']);
    const rounds = await t.db.selectFrom('grant_rounds').select(['number', 'scheduled_on', 'drafted_by']).execute();
    expect(rounds).toEqual([{ number: 1, scheduled_on: due, drafted_by: 'schedule' }]);
    // Run again the same day: nothing more.
    expect(await worker().run()).toEqual({ day: due, outcome: 'exists', round: 1 });
  });

  it('makes no empty round: a donation settled since the cut-off waits for the next', async () => {
    await settledDonations(t, [25]);
    const due = scheduleAt(new Date(), termsOf(t).schedule, t.config.FOUNDATION_TIME_ZONE).due;
    expect(await worker().run()).toEqual({ day: due, outcome: 'nothing_owed' });
    expect(await t.db.selectFrom('grant_rounds').selectAll().execute()).toEqual([]);
  });

  it('runs on the queue, one run at a time across instances, and schedules the next scheduled day', async () => {
    await settledBeforeTheDueDay();
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
