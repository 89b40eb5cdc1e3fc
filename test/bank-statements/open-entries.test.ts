import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEntriesReceivedBetween } from '../../src/infrastructure/repositories/bank-suggestions.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { expectedBatch, unique } from './support.js';

/**
 * The open entries suggestions are made from are read a few batches and a page of entries at a time
 * (src/infrastructure/repositories/bank-suggestions.ts): however small the pages, the answer is the same.
 */
describe('open entries read in pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every open entry once, in order, with its batch open total, whatever the page sizes', async () => {
    const batches: string[] = [];
    for (const amounts of [['10.00', '20.00', '30.00'], ['5.00'], ['7.00', '8.00']])
      batches.push(
        await expectedBatch(
          t,
          amounts.map((amount) => ({ ref: unique('OPEN-'), amount })),
        ),
      );
    const from = new Date(t.clock.now().getTime() - 86_400_000);
    const to = new Date(t.clock.now().getTime() + 86_400_000);
    const all = await openEntriesReceivedBetween(t.db, from, to, () => true);
    const paged = await openEntriesReceivedBetween(t.db, from, to, () => true, {
      batchesPerRead: 2,
      entriesPerPage: 2,
    });
    expect(paged).toEqual(all);
    const ours = all.filter((e) => batches.includes(e.batch_id));
    expect(ours).toHaveLength(6);
    const totals = new Map(ours.map((e) => [e.batch_id, Number(e.batch_open_cents)]));
    expect(batches.map((b) => totals.get(b))).toEqual([6_000, 500, 1_500]);
    const kept = await openEntriesReceivedBetween(t.db, from, to, (e) => Number(e.amount_cents) >= 2_000, {
      entriesPerPage: 1,
    });
    expect(kept.filter((e) => batches.includes(e.batch_id)).map((e) => Number(e.amount_cents))).toEqual([2_000, 3_000]);
  });
});
