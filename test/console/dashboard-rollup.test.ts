import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDashboard } from '../../src/services/console/dashboard.js';
import { operatorOf } from '../bank-statements/support.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';
import { partnerReversal } from '../reversals/support.js';
import { createOperator, getPage, signIn } from './support.js';

/*
 * The dashboard's donation and reversal figures come from daily rollups kept by triggers (migration 047): after
 * donations written alone, in a group commit's one statement (with a replay the natural key skips), under an
 * Idempotency-Key, without an amount, on earlier days and by both partners, and after reversals, they equal what
 * counting the donations and reversals themselves gives.
 */

const DAY_MS = 86_400_000;

describe("the dashboard's figures from the daily rollups", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { DONATION_GROUP_COMMIT: 'true', DONATION_GROUP_COMMIT_MAX_WAIT_MS: '50' },
    });
  });
  afterAll(() => t?.close());

  const rounds = { schedule: '15,last', timeZone: 'Australia/Sydney' };

  /** What the dashboard counted before the rollups: the donations of its days, by day, partner name and channel. */
  async function countedDonations(from: Date) {
    const { rows } = await sql<{ day: string; partnerName: string; channel: string; count: string; total: string }>`
      select to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, p.name as "partnerName", d.channel,
             count(*) as count, coalesce(sum(d.amount_cents), 0) as total
      from donations d join partners p on p.id = d.partner_id
      where d.created_at >= ${from.toISOString()}::timestamptz
      group by 1, 2, 3`.execute(t.db);
    return rows
      .map((r) => ({
        day: r.day,
        partnerName: r.partnerName,
        channel: r.channel,
        count: Number(r.count),
        totalCents: Number(r.total),
      }))
      .sort(byKey);
  }

  async function countedReversals(from: Date) {
    const { rows } = await sql<{ count: string; total: string; owed: string; owed_total: string }>`
      select count(*) filter (where created_at >= ${from.toISOString()}::timestamptz) as count,
             coalesce(sum(amount_cents) filter (where created_at >= ${from.toISOString()}::timestamptz), 0) as total,
             count(*) filter (where owed_back and repaid_at is null) as owed,
             coalesce(sum(amount_cents) filter (where owed_back and repaid_at is null), 0) as owed_total
      from donation_reversals`.execute(t.db);
    const r = rows[0]!;
    return {
      count: Number(r.count),
      totalCents: Number(r.total),
      owedCount: Number(r.owed),
      owedCents: Number(r.owed_total),
    };
  }

  type Row = { day: string; partnerName: string; channel: string };
  const byKey = (a: Row, b: Row) =>
    `${a.day}|${a.partnerName}|${a.channel}`.localeCompare(`${b.day}|${b.partnerName}|${b.channel}`);

  async function expectSameFigures() {
    const dashboard = await loadDashboard(operatorOf(t), rounds);
    const from = new Date(`${dashboard.days[0]}T00:00:00Z`);
    expect([...dashboard.donations].sort(byKey)).toEqual(await countedDonations(from));
    expect(dashboard.reversals).toEqual(await countedReversals(from));
    return dashboard;
  }

  /** A donation written with an explicit creation time, as the history's COPY or a migration would. */
  async function donationAt(at: Date, amountCents: number) {
    await sql`
      insert into donations (reference_id, partner_id, environment, is_live, channel, account_id, fundraiser_id,
                             donor_email, donor_first_name, donor_last_name, address_postal_code, amount_cents,
                             transaction_id, request_hash, correlation_id, created_at)
      select 'DON-R' || substr(md5(${randomUUID()}), 1, 10), d.partner_id, d.environment, d.is_live, d.channel,
             d.account_id, d.fundraiser_id, 'past@example.com', 'Past', 'Donor', '2000', ${amountCents},
             ${randomUUID()}, 'h', gen_random_uuid(), ${at.toISOString()}::timestamptz
      from donations d limit 1`.execute(t.db);
  }

  it('starts empty and stays equal to the donations counted, whichever way they are written', async () => {
    const empty = await expectSameFigures();
    expect(empty.donations).toEqual([]);

    // Concurrent requests: the group commit writes them in one multi-row INSERT; the replay is skipped by the
    // natural key and must not be counted twice.
    const replayed = donationBody({ amount: '12.34' });
    const bodies = [
      donationBody({ amount: '10.00' }),
      donationBody({ amount: '20.50' }),
      replayed,
      replayed,
      donationBody({ amount: '7.00' }),
    ];
    const answers = await Promise.all(bodies.map((body) => t.post('/donations', body)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);

    const keyed = await t.post('/donations', donationBody({ amount: '3.00' }), {
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(keyed.statusCode).toBe(200);
    const noAmount = donationBody({});
    delete (noAmount.transaction as { amount?: string }).amount;
    expect((await t.post('/donations', noAmount)).statusCode).toBe(200);
    const registration = donationBody({
      amount: '40.00',
      channel: 'Registration Integration',
      fundraiserId: '10000003',
    });
    expect((await t.post('/donations', registration, { as: t.registration })).statusCode).toBe(200);

    const now = t.clock.now().getTime();
    await donationAt(new Date(now - 3 * DAY_MS), 1_500);
    await donationAt(new Date(now - 13 * DAY_MS), 2_500);
    // Before the first day shown: counted by neither.
    await donationAt(new Date(now - 20 * DAY_MS), 9_900);

    const dashboard = await expectSameFigures();
    const today = dashboard.days.at(-1)!;
    const storefrontToday = dashboard.donations.find((d) => d.day === today && d.channel === 'Storefront App');
    // 10.00 + 20.50 + 12.34 (once) + 7.00 + 3.00 + no amount: six donations.
    expect(storefrontToday).toMatchObject({ count: 6, totalCents: 5_284 });
    expect(dashboard.donations.reduce((sum, d) => sum + d.count, 0)).toBe(9);
  });

  it('counts the reversals of its days and the money owed back as the reversals themselves give', async () => {
    const reference = (await t.post('/donations', donationBody({ amount: '50.00' }))).json().data.items
      .donationReferenceId as string;
    await partnerReversal(t, reference, '5.00');
    await partnerReversal(t, reference, '2.50');
    const dashboard = await expectSameFigures();
    expect(dashboard.reversals).toMatchObject({ count: 2, totalCents: 750 });
  });

  it('shows the figures on the console page', async () => {
    await createOperator(t, 'rollup@foundation.example', 'viewer');
    const { session } = await signIn(t, 'rollup@foundation.example');
    const page = await getPage(t, session, '/console');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Registration Integration');
  });
});
