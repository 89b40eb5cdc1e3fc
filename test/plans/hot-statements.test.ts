import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar-date.js';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { bankLines, bankMatches, openSuggestions, unpaidEntries } from '../../src/services/bank-statements/listings.js';
import { loadDashboard } from '../../src/services/console/dashboard.js';
import { listAudit } from '../../src/services/operators/audit.js';
import { DEBIT_VIEWS, listDebits } from '../../src/services/operators/recurring-debits.js';
import { camt053, dayOf, operatorOf, settingsOf } from '../bank-statements/support.js';
import { donationBody, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch } from '../reconciliation/support.js';
import { advance, confirmedMandate, startPlan, todayOf } from '../recurring/support.js';
import { planSkip, seededHistory } from './seeded.js';
import { nodesReading, scansOfGrowingTables, tablesRead } from './support.js';

/*
 * The statements the request path and the jobs run, each explained as it runs on a database with months of history
 * (test/plans/history.ts): none may scan a growing table from end to end, or its cost grows with the history.
 */

describe.skipIf(planSkip !== null)(`plans on a seeded history${planSkip ? ` (skipped: ${planSkip})` : ''}`, () => {
  const history = seededHistory();
  const { recorded } = history;
  let t: TestApp;
  beforeAll(() => {
    t = history.app();
  });

  it('the partner API: a donation and its replay, a batch and its report, the lists by page', async () => {
    const plans = await recorded(async () => {
      const found = await t.get('/fundraisers', { query: { channel: 'Storefront App', id: '10000001' } });
      expect(found.statusCode).toBe(200);
      const body = donationBody({ amount: '12.00' });
      expect((await t.post('/donations', body)).statusCode).toBe(200);
      expect((await t.post('/donations', body)).statusCode).toBe(200);
      const donation = await donate(t, '30.00');
      const batchId = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 30, donationIds: [donation] }]);
      expect((await t.get(`/remittances/${batchId}`)).statusCode).toBe(200);
      const page = await t.get('/remittances', { query: { limit: '20' } });
      expect(page.statusCode).toBe(200);
      const events = await t.get('/events', { query: { limit: '50' } });
      expect(events.statusCode).toBe(200);
      const last = events.json().data.items.events.at(-1).id as string;
      expect((await t.get('/events', { query: { limit: '50', after: last } })).statusCode).toBe(200);
    }, 10);
    expect(scansOfGrowingTables(plans)).toEqual([]);
  }, 60_000);

  it('the reconciliation job: settlements, receipts, their mail and events', async () => {
    const donations = [await donate(t, '10.00'), await donate(t, '20.00')];
    await postBatch(t, [
      { bankReferenceId: bankReference(), amount: 10, donationIds: [donations[0]!] },
      { bankReferenceId: bankReference(), amount: 20, donationIds: [donations[1]!] },
    ]);
    const plans = await recorded(() => t.reconcile(), 5);
    expect(scansOfGrowingTables(plans)).toEqual([]);
    // Settled, receipted, mailed and told: each of those statements was among the plans read.
    for (const table of ['donation_settlements', 'receipts', 'mail_outbox', 'webhook_events'])
      expect(
        plans.some((plan) => new RegExp(`\\b${table}\\b`).test(plan.text)),
        table,
      ).toBe(true);
  }, 60_000);

  it('bank matching: a statement imported and matched automatically, the open lines listed', async () => {
    const ref = bankReference();
    const donation = await donate(t, '25.00');
    await postBatch(t, [{ bankReferenceId: ref, amount: 25, donationIds: [donation] }]);
    await t.reconcile();
    const ops = operatorOf(t);
    const plans = await recorded(async () => {
      const content = camt053([
        { amount: '25.00', booked: dayOf(t), bankRef: 'PLAN-1', endToEndId: ref },
        { amount: '7.00', booked: dayOf(t), bankRef: 'PLAN-2', ustrd: ['no reference here'] },
      ]);
      const result = await importStatement(ops, settingsOf(t), { fileName: 'plans.xml', content });
      expect(result).toMatchObject({ automatic: 1 });
      expect(await bankLines(ops, settingsOf(t), { unmatched: true, limit: 50 })).toHaveLength(1);
      await bankMatches(ops, 50);
      await openSuggestions(ops, 50);
      await unpaidEntries(ops, settingsOf(t), { limit: 50 });
    }, 5);
    expect(scansOfGrowingTables(plans)).toEqual([]);
    // The automatic rule's pairs and the suggestions' lines were among them: both read the open lines only.
    expect(plans.filter((plan) => plan.text.includes('bank_open_lines')).length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('recurring donations: the look for due plans and debits', async () => {
    const plans = await recorded(() => t.recurring.scan(), 2);
    expect(scansOfGrowingTables(plans)).toEqual([]);
  }, 60_000);

  it('due debits: created, submitted and settled on the sandbox clock, as the bench runs them', async () => {
    const mandateId = await confirmedMandate(t);
    const tomorrow = addDays(await todayOf(t), 1);
    for (let i = 0; i < 3; i += 1)
      await startPlan(t, { mandateId, amount: '25', frequency: 'monthly', startDate: tomorrow });
    const plans = await recorded(async () => {
      // The bench's figure: a day's debits created and submitted in the clock's walk.
      const walked = await advance(t, 'P1D');
      expect(walked.json().data.items).toMatchObject({ debitsCreated: 3, triesSubmitted: 3 });
      // Their payments settle: each a collected donation, its settlement and the partner's events.
      const settled = await advance(t, 'P3D');
      expect(settled.json().data.items).toMatchObject({ paymentsSettled: 3 });
    }, 10);
    expect(scansOfGrowingTables(plans)).toEqual([]);
  }, 60_000);

  it("operators: the console's dashboard and the audit log", async () => {
    const ops = operatorOf(t);
    const plans = await recorded(async () => {
      await loadDashboard(ops, { schedule: '15,last', timeZone: 'Australia/Sydney' });
      await listAudit(ops, { limit: 50 });
    }, 3);
    expect(scansOfGrowingTables(plans)).toEqual([]);
    // Its donation and reversal figures come from the daily rollups (migration 047), not from the donations of its
    // days, whose number grows with the traffic even where an index finds them. The only statement still reading
    // donations is the recent exceptions' list: the reversed amount of each of its 10 entries, by reference.
    const read = tablesRead(plans);
    expect(read.has('daily_donations') && read.has('daily_reversals')).toBe(true);
    // The recent exceptions: each shown batch's own, never every exception of the month (migration 057).
    const exceptionReads = nodesReading(plans, 'remittance_entries');
    expect(exceptionReads.length).toBeGreaterThan(0);
    for (const node of exceptionReads) expect(node['Index Cond'] ?? '').toContain('batch_id =');
    const readingDonations = plans.filter((plan) => tablesRead([plan]).has('donations'));
    expect(readingDonations.filter((plan) => !plan.text.includes('"remittance_entries"'))).toEqual([]);
  }, 60_000);

  it("operators: the debits' views, each a page in its own order", async () => {
    const ops = operatorOf(t);
    const plans = await recorded(async () => {
      for (const view of DEBIT_VIEWS)
        expect(Array.isArray(await listDebits(ops, { view, limit: 50 }, 'Australia/Sydney'))).toBe(true);
    }, DEBIT_VIEWS.length);
    expect(scansOfGrowingTables(plans)).toEqual([]);
  }, 60_000);
});
