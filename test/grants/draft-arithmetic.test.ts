import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import {
  accountIdOf,
  CLUB,
  donation,
  draft,
  grantedDonationCount,
  linesOf,
  markApproved,
  partnerReversal,
  settledDonations,
  termsOf,
  verifiedDetails,
} from './support.js';
import { remit } from '../reversals/support.js';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { dayOf, expectedBatch, operatorOf, settingsOf, unique } from '../bank-statements/support.js';

/** What a round pays each club (docs/grants.md, "What a round pays" and "Held and carried forward"). */
describe('a grant round’s arithmetic', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ env: { GRANT_MINIMUM: '20.00' } });
  });
  afterEach(() => t.close());

  async function approvedDraft(terms = termsOf(t)) {
    const outcome = await draft(t, terms);
    expect(outcome.drafted).toBe(true);
    await markApproved(t.db, outcome.round.id);
    return { round: outcome.round, lines: await linesOf(t.db, outcome.round.id) };
  }

  it('pays settled donations net of reversals before and after settlement, once', async () => {
    await verifiedDetails(t.db, CLUB.storefront);
    await settledDonations(t, [30, 20]);
    // Reversed in part before it settled: the remittance pays what is left, the round pays that.
    const early = await donation(t, '40.00');
    await partnerReversal(t, early, '10.00');
    await remit(t, [{ ref: 'BANK-EARLY-1', amount: 30, ids: [early] }]);
    // Reversed in part after it settled but before any round: owed back, and the round pays only what is left.
    const [late] = await settledDonations(t, [50]);
    expect((await partnerReversal(t, late!, '15.00')).owedBack).toBe(true);
    // Not settled: not in the round.
    await donation(t, '99.00');

    const { round, lines } = await approvedDraft();
    expect(lines[CLUB.storefront]).toMatchObject({
      status: 'payable',
      hold_reason: null,
      donations_cents: '11500', // 30 + 20 + (40 − 10) + (50 − 15)
      recovered_cents: '0',
      fee_cents: '0',
      amount_cents: '11500',
      donation_count: 4,
      lodgement_reference: `FG${round.number}-1`,
    });
    expect({ ...round, total_cents: String(round.total_cents) }).toMatchObject({
      total_cents: '11500',
      grant_count: 1,
      held_count: 0,
    });
    expect(await grantedDonationCount(t.db)).toBe(4);

    // Nothing new: the next round has no line for the club.
    const again = await approvedDraft();
    expect(again.lines[CLUB.storefront]).toBeUndefined();
    expect(await grantedDonationCount(t.db)).toBe(4);
  });

  it('recovers a reversal after granting from the next round, and carries a negative balance', async () => {
    await verifiedDetails(t.db, CLUB.storefront);
    const [big] = await settledDonations(t, [100]);
    await approvedDraft();
    await partnerReversal(t, big!, '60.00');
    await settledDonations(t, [25]);

    const second = await approvedDraft();
    expect(second.lines[CLUB.storefront]).toMatchObject({
      status: 'held',
      hold_reason: 'negative_balance',
      donations_cents: '2500',
      recovered_cents: '6000',
      amount_cents: '-3500',
    });
    // Held claims nothing: the 25 and the 60 are counted again next time.
    await settledDonations(t, [70]);
    const third = await approvedDraft();
    expect(third.lines[CLUB.storefront]).toMatchObject({
      status: 'payable',
      donations_cents: '9500',
      recovered_cents: '6000',
      amount_cents: '3500',
      donation_count: 2,
    });
    const recovered = await t.db.selectFrom('grant_recoveries').selectAll().execute();
    expect(recovered).toEqual([expect.objectContaining({ grant_id: third.lines[CLUB.storefront]!.id })]);
    expect(Number(recovered[0]!.amount_cents)).toBe(6000);
    // Recovered once.
    await settledDonations(t, [30]);
    const fourth = await approvedDraft();
    expect(fourth.lines[CLUB.storefront]).toMatchObject({ recovered_cents: '0', amount_cents: '3000' });
  });

  it('takes the fee half up and holds what is under the minimum until it is not', async () => {
    await verifiedDetails(t.db, CLUB.storefront);
    await settledDonations(t, [10.1]);
    const first = await approvedDraft(termsOf(t, { feeBasisPoints: 250 }));
    // 2.5 % of 10.10 is 0.2525 → 0.25; 9.85 is under 20.00.
    expect(first.lines[CLUB.storefront]).toMatchObject({
      status: 'held',
      hold_reason: 'under_minimum',
      fee_cents: '25',
      amount_cents: '985',
    });
    await settledDonations(t, [10.3]);
    const second = await approvedDraft(termsOf(t, { feeBasisPoints: 250 }));
    // 2.5 % of 20.40 is 0.51 exactly; 20.40 − 0.51 = 19.89: still under.
    expect(second.lines[CLUB.storefront]).toMatchObject({ hold_reason: 'under_minimum', fee_cents: '51' });
    await settledDonations(t, [0.6]);
    const third = await approvedDraft(termsOf(t, { feeBasisPoints: 250 }));
    // 2.5 % of 21.00 is 0.525 → 0.53 (half up); 21.00 − 0.53 = 20.47.
    expect(third.lines[CLUB.storefront]).toMatchObject({
      status: 'payable',
      donations_cents: '2100',
      fee_cents: '53',
      amount_cents: '2047',
      donation_count: 3,
    });
  });

  it('holds for each reason in precedence, claiming nothing', async () => {
    // Registration's club has no bank details at all.
    await settledDonations(t, [40], 'registration');
    await settledDonations(t, [40]);
    // Storefront's club: details entered two days ago (the hold is seven), not waived.
    await verifiedDetails(t.db, CLUB.storefront, { enteredDaysAgo: 2 });
    let round = await approvedDraft();
    expect(round.lines[CLUB.registration]).toMatchObject({ status: 'held', hold_reason: 'no_bank_details' });
    expect(round.lines[CLUB.storefront]).toMatchObject({ status: 'held', hold_reason: 'bank_details_on_hold' });
    expect(await grantedDonationCount(t.db)).toBe(0);

    // Waived by the verifier: paid.
    await verifiedDetails(t.db, CLUB.storefront, { enteredDaysAgo: 2, holdWaived: true });
    // Registration's club: details long verified, but an acquittal overdue.
    const details = await verifiedDetails(t.db, CLUB.registration, { enteredDaysAgo: 60 });
    const registration = await accountIdOf(t.db, CLUB.registration);
    const earlier = round.lines[CLUB.registration]!.id;
    await t.db
      .insertInto('grant_acquittals')
      .values({ grant_id: earlier, account_id: registration, due_on: '2026-01-31' })
      .execute();
    round = await approvedDraft();
    expect(round.lines[CLUB.storefront]).toMatchObject({ status: 'payable', amount_cents: '4000' });
    expect(round.lines[CLUB.registration]).toMatchObject({ status: 'held', hold_reason: 'acquittal_overdue' });

    // The acquittal recorded; the storefront club's grant returned by its bank after its details were verified.
    await t.db.updateTable('grant_acquittals').set({ recorded_at: new Date(), recorded_by: 'x' }).execute();
    const paid = round.lines[CLUB.storefront]!.id;
    await sql`update grants set status = 'returned', returned_at = now(), return_reason = 'returned by the bank'
              where id = ${paid}`.execute(t.db);
    expect(details.verified_at!.getTime()).toBeLessThan(Date.now());
    round = await approvedDraft();
    expect(round.lines[CLUB.registration]).toMatchObject({ status: 'payable', amount_cents: '4000' });
    expect(round.lines[CLUB.storefront]).toMatchObject({
      status: 'held',
      hold_reason: 'payment_returned',
      donations_cents: '0',
      reissued_cents: '4000',
    });

    // Newer details verified: the returned grant is paid again, once.
    await verifiedDetails(t.db, CLUB.storefront, { enteredDaysAgo: 30, verifiedAt: new Date() });
    round = await approvedDraft();
    expect(round.lines[CLUB.storefront]).toMatchObject({
      status: 'payable',
      reissued_cents: '4000',
      amount_cents: '4000',
    });
    const reissued = await t.db.selectFrom('grants').select('reissued_in').where('id', '=', paid).executeTakeFirst();
    expect(reissued?.reissued_in).toBe(round.lines[CLUB.storefront]!.id);
    round = await approvedDraft();
    expect(round.lines[CLUB.storefront]).toBeUndefined();
  });

  it('with GRANT_BASIS=funds_received pays only what a bank line showed received', async () => {
    await verifiedDetails(t.db, CLUB.storefront);
    const [received, waiting] = [unique('GR-'), unique('GR-')];
    await expectedBatch(t, [
      { ref: received, amount: '30.00' },
      { ref: waiting, amount: '45.00' },
    ]);
    const terms = termsOf(t, { basis: 'funds_received' });
    const before = await approvedDraft(terms);
    expect(before.lines[CLUB.storefront]).toBeUndefined();
    const day = dayOf(t);
    await importStatement(operatorOf(t), settingsOf(t), {
      fileName: 'received.csv',
      content: `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)},+30.00,"DIRECT CREDIT ${received}",+30.00`,
      preset: 'commbank',
      account: '062000 12345678',
    });
    const after = await approvedDraft(terms);
    expect(after.lines[CLUB.storefront]).toMatchObject({
      status: 'payable',
      donations_cents: '3000',
      donation_count: 1,
    });
    // Settled, but its money not seen: still waiting; the settled basis would pay it.
    const settled = await approvedDraft();
    expect(settled.lines[CLUB.storefront]).toMatchObject({ donations_cents: '4500', donation_count: 1 });
  });
});
