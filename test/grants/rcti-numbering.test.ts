import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeRctiNumbers } from '../../src/infrastructure/repositories/grant-advices.js';
import { advicePolicy, issueAdvices } from '../../src/services/grants/advice/issue.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { paidRound, type ClubSpec } from './paid-grant-fixture.js';

const gstClub = (): ClubSpec => ({
  gst: true,
  abn: '51824753556',
  finance: ['f@club.test'],
  donations: [{ cents: 3000 }],
});
const plainClub = (): ClubSpec => ({ finance: ['f@club.test'], donations: [{ cents: 3000 }] });

/** RCTI numbers (docs/grants.md, "Advice and RCTI"): one series, gapless, once per grant of a GST-registered club. */
describe('RCTI numbering', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ deps: { payments: noPaymentProvider } });
  });
  afterAll(() => t?.close());

  const issue = (roundId: string) => issueAdvices(t.db, { roundId }, advicePolicy(t.config), t.clock.now);
  const numbers = async () =>
    (await t.db.selectFrom('grants').select(['rcti_number', 'account_id']).where('status', '=', 'paid').execute())
      .map((g) => g.rcti_number)
      .filter((n): n is string => n !== null)
      .sort();

  it('numbers only the grants of GST-registered clubs, once each, without gaps across concurrent issues', async () => {
    const first = await paidRound(t, [gstClub(), plainClub(), gstClub(), gstClub(), plainClub(), gstClub()]);
    const second = await paidRound(t, [plainClub(), gstClub(), gstClub(), gstClub(), gstClub(), gstClub()]);
    // Both rounds' advices at once (two connections on PostgreSQL): each takes a block of the series in turn.
    const reports = await Promise.all([issue(first.roundId), issue(second.roundId), issue(first.roundId)]);
    expect(reports.map((r) => r.rctis).reduce((a, b) => a + b)).toBe(9);
    expect(reports.map((r) => r.advised).reduce((a, b) => a + b)).toBe(12);
    expect(await numbers()).toEqual(Array.from({ length: 9 }, (_, i) => `RCTI-${String(i + 1).padStart(6, '0')}`));
    const plain = await t.db
      .selectFrom('grants')
      .innerJoin('accounts', 'accounts.id', 'grants.account_id')
      .select(['grants.rcti_number', 'grants.advised_at'])
      .where('accounts.gst_registered', '=', false)
      .where('grants.status', '=', 'paid')
      .execute();
    expect(plain).toHaveLength(3);
    for (const grant of plain) {
      expect(grant.rcti_number).toBeNull();
      expect(grant.advised_at).not.toBeNull();
    }
    // Issued again: every grant is advised, no number is taken.
    expect(await issue(first.roundId)).toEqual({ advised: 0, rctis: 0, messages: 0 });
    expect(await numbers()).toHaveLength(9);
  });

  it('gives back the numbers of an issue that rolled back', async () => {
    await t.db
      .transaction()
      .execute(async (trx) => {
        expect(await takeRctiNumbers(trx, 3)).toBe(10);
        throw new Error('the issuing transaction rolls back');
      })
      .catch(() => undefined);
    const round = await paidRound(t, [gstClub()]);
    expect(await issue(round.roundId)).toMatchObject({ advised: 1, rctis: 1 });
    expect((await numbers()).at(-1)).toBe('RCTI-000010');
  });

  it('leaves a club without a finance contact waiting, its number untaken until it is advised', async () => {
    const round = await paidRound(t, [{ gst: true, abn: '51824753556', donations: [{ cents: 4000 }] }]);
    expect(await issue(round.roundId)).toEqual({ advised: 0, rctis: 0, messages: 0 });
    const grant = round.grants[0]!;
    await t.db
      .insertInto('club_contacts')
      .values({ account_id: grant.accountId, role: 'finance', name: 'Treasurer', email: 'late@club.test' })
      .execute();
    expect(await issue(round.roundId)).toEqual({ advised: 1, rctis: 1, messages: 1 });
    expect((await numbers()).at(-1)).toBe('RCTI-000011');
  });
});
