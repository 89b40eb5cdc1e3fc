import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateIn } from '../../src/domain/calendar-date.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { grantWorkers } from './advice-support.js';
import { accountIdOf, CLUB, settledDonations, tomorrow, verifiedDetails } from './support.js';

const ALICE = 'alice@example.org';
const BOB = 'bob@example.org';

/**
 * A round through the rounds' own services, then what follows payment: the advice mailed once by the job the paid
 * round enqueued, the acquittal it opened, and that acquittal holding the club's next grant while it is overdue.
 */
describe('after a round is paid', () => {
  let t: TestApp;
  let run: Cli;
  let workers: ReturnType<typeof grantWorkers>;
  const as = (operator: string, ...argv: string[]) => ok(run, ...argv, '--operator', operator);
  const draftReviewApprove = async (number: number) => {
    await as(ALICE, 'grants', 'draft', '--cutoff', tomorrow(t));
    await as(ALICE, 'grants', 'review', '--round', String(number));
    await as(BOB, 'grants', 'approve', '--round', String(number));
  };

  beforeAll(async () => {
    t = await startTestApp();
    run = cli({ database: t.database });
    workers = grantWorkers(t);
    for (const email of [ALICE, BOB])
      await t.db
        .insertInto('console_operators')
        .values({ email, role: 'admin', password_hash: 'not-a-hash' })
        .execute();
    await verifiedDetails(t.db, CLUB.storefront, { bsb: '062-111', account: '11110001' });
    await t.db
      .insertInto('club_contacts')
      .values({
        account_id: await accountIdOf(t.db, CLUB.storefront),
        role: 'finance',
        name: 'Treasurer',
        email: 'treasurer@riverside.test',
      })
      .execute();
  });
  afterAll(async () => {
    workers?.stop();
    await t?.close();
  });

  it('advises the paid grant once and holds the next one while its acquittal is overdue', async () => {
    await settledDonations(t, [30, 20.5]);
    await draftReviewApprove(1);
    await as(BOB, 'grants', 'paid', '--round', '1');
    expect(await workers.runAdvices()).toBe(1);
    const [grant] = await t.db.selectFrom('grants').selectAll().execute();
    expect(grant!.advised_at).not.toBeNull();
    const advices = await t.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'grant-advice').execute();
    expect(advices.map((m) => [m.recipient, m.about])).toEqual([
      ['treasurer@riverside.test', `grant:${grant!.lodgement_reference}`],
    ]);
    expect(await workers.runAdvices()).toBe(0);

    const open = await ok(run, 'grants', 'acquittals');
    expect(open).toEqual([expect.objectContaining({ lodgementReference: grant!.lodgement_reference, state: 'open' })]);
    // Its due day passes unrecorded (the acquittal's day moved back rather than the clock forward).
    await sql`update grant_acquittals set due_on = '2026-01-01'`.execute(t.db);
    expect(await ok(run, 'grants', 'acquittals', '--overdue')).toHaveLength(1);

    await settledDonations(t, [40]);
    await as(ALICE, 'grants', 'draft', '--cutoff', tomorrow(t));
    const held = await ok(run, 'grants', 'show', '--round', '2');
    expect(held.lines).toEqual([
      expect.objectContaining({ memberNumber: CLUB.storefront, status: 'held', holdReason: 'acquittal_overdue' }),
    ]);
    await as(ALICE, 'grants', 'cancel', '--round', '2', '--reason', 'acquittal recorded since');

    await as(
      ALICE,
      'grants',
      'acquittal-record',
      '--grant',
      grant!.lodgement_reference!,
      '--declared-by',
      'Pat Lee',
      '--declared-on',
      dateIn(new Date(), t.config.FOUNDATION_TIME_ZONE),
      '--spent',
      '50.50',
      '--purpose',
      'Junior uniforms',
    );
    await draftReviewApprove(3);
    const paid = await ok(run, 'grants', 'show', '--round', '3');
    expect(paid.lines).toEqual([
      expect.objectContaining({ memberNumber: CLUB.storefront, status: 'payable', amountCents: '4000' }),
    ]);
  });
});
