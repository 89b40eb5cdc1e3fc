import { beforeAll, describe, expect, it } from 'vitest';
import { bankLines, bankMatches, bankStatements, unpaidEntries } from '../../src/services/bank-statements/listings.js';
import { listAudit } from '../../src/services/operators/audit.js';
import { mailOutbox } from '../../src/services/operators/receipt-register.js';
import { operatorOf, settingsOf } from '../bank-statements/support.js';
import type { TestApp } from '../helpers/test-app.js';
import { planSkip, seededHistory } from './seeded.js';
import { nodesReading, scansOfGrowingTables } from './support.js';

/*
 * Operators' listings read by key on a database with a history (docs/decisions/0074-operators-listings-by-key.md):
 * the first page and a page after a cursor each read an index range or a work list, never a growing table whole,
 * and the mail outbox's counts read indexes of what they count.
 */

describe.skipIf(planSkip !== null)(`listings on a seeded history${planSkip ? ` (skipped: ${planSkip})` : ''}`, () => {
  const history = seededHistory();
  const { recorded } = history;
  let t: TestApp;
  beforeAll(() => {
    t = history.app();
  });

  it('the unpaid entries: the first page and one after a cursor, from the work list', async () => {
    const ops = operatorOf(t);
    let pages = 0;
    const plans = await recorded(async () => {
      const first = await unpaidEntries(ops, settingsOf(t), { limit: 200 });
      // The history leaves the entries no bank line paid open: many pages of them.
      expect(first.items).toHaveLength(200);
      expect(first.next).not.toBeNull();
      const second = await unpaidEntries(ops, settingsOf(t), { limit: 200, after: first.next! });
      expect(second.items[0]!.receivedAt.getTime()).toBeGreaterThanOrEqual(first.items.at(-1)!.receivedAt.getTime());
      pages = 2;
    }, 2);
    expect(pages).toBe(2);
    expect(scansOfGrowingTables(plans)).toEqual([]);
    expect(plans.every((plan) => plan.text.includes('bank_open_entries'))).toBe(true);
  }, 60_000);

  it("the mail outbox: its counts, the unsent, one status's page and the page after it", async () => {
    const ops = operatorOf(t);
    const plans = await recorded(async () => {
      const unsent = await mailOutbox(ops, { limit: 500 });
      expect(unsent.counts).toEqual({});
      const sent = await mailOutbox(ops, { status: 'sent', limit: 500 });
      expect(sent.messages).toHaveLength(500);
      await mailOutbox(ops, { status: 'sent', limit: 500, after: sent.next! });
    }, 9);
    expect(scansOfGrowingTables(plans)).toEqual([]);
  }, 60_000);

  it('bank lines (all, and unmatched) and matches: a page, and the page after its last row', async () => {
    const ops = operatorOf(t);
    const plans = await recorded(async () => {
      for (const unmatched of [false, true]) {
        const first = await bankLines(ops, settingsOf(t), { unmatched, limit: 200 });
        if (first.length > 0) await bankLines(ops, settingsOf(t), { unmatched, limit: 200, after: first.at(-1)!.id });
      }
      const matches = await bankMatches(ops, 200);
      expect(matches).toHaveLength(200);
      await bankMatches(ops, 200, matches.at(-1)!.id);
    }, 5);
    expect(scansOfGrowingTables(plans)).toEqual([]);
  }, 60_000);

  it("the statements: each listed statement's dates read from its own lines only", async () => {
    const ops = operatorOf(t);
    const plans = await recorded(async () => {
      expect((await bankStatements(ops, 10)).length).toBeGreaterThan(0);
    }, 1);
    expect(scansOfGrowingTables(plans)).toEqual([]);
    // Not a walk of the booking dates' index filtered by statement, which reads every line ever imported.
    const reads = nodesReading(plans, 'bank_lines');
    expect(reads.length).toBeGreaterThan(0);
    for (const node of reads) expect(node['Index Cond'] ?? '').toContain('statement_id');
  }, 60_000);

  it('the audit log: a page, and the page after its last entry', async () => {
    const ops = operatorOf(t);
    const plans = await recorded(async () => {
      const first = await listAudit(ops, { limit: 201 });
      await listAudit(ops, { limit: 201, after: String(first.at(-1)!.id) });
      await listAudit(ops, { action: 'partner', limit: 201, after: String(first.at(-1)!.id) });
    }, 3);
    expect(scansOfGrowingTables(plans)).toEqual([]);
  }, 60_000);
});
