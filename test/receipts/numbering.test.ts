import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptPolicy } from '../../src/config/receipts.js';
import { financialYearOf } from '../../src/domain/financial-year.js';
import { issueAtSettlement } from '../../src/services/receipts/issue.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { give, receiptsOf } from './donations.js';
import { LIVE_ENV, uniqueEmail } from './support.js';

// 30 June 2027 23:59 and 1 July 2027 00:00 in Sydney (AEST, UTC+10: no daylight saving in winter).
const LAST_MINUTE = new Date('2027-06-30T13:59:00Z');
const FIRST_MINUTE = new Date('2027-06-30T14:00:00Z');

describe('receipt numbers run per Australian financial year in Sydney time, gapless', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIVE_ENV, deps: { payments: noPaymentProvider } });
  });
  afterAll(() => t?.close());

  async function issue(at: Date, fail = false) {
    const reference = await give(t, '10.00', { email: uniqueEmail() });
    const { id } = await t.db
      .selectFrom('donations')
      .select('id')
      .where('reference_id', '=', reference)
      .executeTakeFirstOrThrow();
    const policy = receiptPolicy(t.config);
    await t.db
      .transaction()
      .execute(async (trx) => {
        await issueAtSettlement(trx, { donationIds: [id] }, policy, at);
        if (fail) throw new Error('the settling transaction rolls back');
      })
      .catch((err: Error) => {
        if (!fail) throw err;
      });
    return (await receiptsOf(t, reference))[0]?.number ?? null;
  }

  it('changes year between 30 June 23:59 and 1 July 00:00 in Sydney, whatever UTC says', async () => {
    expect(financialYearOf(LAST_MINUTE, 'Australia/Sydney')).toBe('2026-27');
    expect(financialYearOf(FIRST_MINUTE, 'Australia/Sydney')).toBe('2027-28');
    expect(await issue(LAST_MINUTE)).toBe('2026-27-000001');
    expect(await issue(FIRST_MINUTE)).toBe('2027-28-000001');
    expect(await issue(new Date(LAST_MINUTE.getTime() + 59_999))).toBe('2026-27-000002');
    expect(await issue(new Date(FIRST_MINUTE.getTime() + 1))).toBe('2027-28-000002');
  });

  it('gives back the numbers of a settlement that rolled back: no gap, no reuse', async () => {
    expect(await issue(FIRST_MINUTE, true)).toBeNull();
    expect(await issue(FIRST_MINUTE)).toBe('2027-28-000003');
    const numbers = await t.db.selectFrom('receipts').select('number').orderBy('number').execute();
    expect(new Set(numbers.map((n) => n.number)).size).toBe(numbers.length);
  });
});
