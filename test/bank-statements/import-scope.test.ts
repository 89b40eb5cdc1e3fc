import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { openSuggestions } from '../../src/services/bank-statements/listings.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { camt053, dayOf, expectedBatch, operatorOf, settingsOf, unique } from './support.js';

/**
 * An import makes suggestions again only for the open lines it can change (docs/decisions/0093-suggestions-for-the-
 * lines-an-import-can-change.md): a line booked long before keeps its open suggestion as it was, until what it names
 * is matched by something else.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(() => t?.close());

const DAY = 86_400_000;
const load = async (entries: Parameters<typeof camt053>[0]) =>
  importStatement(operatorOf(t), settingsOf(t), { fileName: `${unique('s')}.xml`, content: camt053(entries) });
const suggestionsOfLine = async (lineId: number) =>
  (await openSuggestions(operatorOf(t), 1000)).filter((s) => s.lines.some((l) => l.id === lineId));

describe('an import’s suggestions', () => {
  it('leaves an old line’s open suggestion as it was, and drops it once what it names is matched', async () => {
    const ref = unique('OLD-');
    const batchId = await expectedBatch(t, [
      { ref, amount: '112.00' },
      { ref: unique('OLD-'), amount: '8.00' },
    ]);
    const first = await load([{ amount: '120.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: ['SETTLEMENT'] }]);
    const [lineId] = (
      await t.db.selectFrom('bank_lines').select('id').where('statement_id', '=', first.statementId!).execute()
    ).map((l) => Number(l.id));
    const [before] = await suggestionsOfLine(lineId!);
    expect(before).toMatchObject({ rule: 'line_pays_entries', lineCents: 12_000 });
    expect(before!.entries.map((e) => e.batchId)).toEqual([batchId, batchId]);

    // A month on, two statements of other money: the second cannot change a line booked a month before.
    t.clock.advance(30 * DAY);
    await load([{ amount: '5.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: ['INTEREST'] }]);
    const [recomputed] = await suggestionsOfLine(lineId!);
    expect(recomputed).toMatchObject({ rule: 'line_pays_entries', lineCents: 12_000 });
    const later = await load([{ amount: '6.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: ['INTEREST'] }]);
    expect(later).toMatchObject({ linesAdded: 1, automatic: 0 });
    expect((await suggestionsOfLine(lineId!)).map((s) => s.id)).toEqual([recomputed!.id]);
    // Every open line and suggestion counted, not only those the import looked at.
    expect(later.unmatchedLines).toBeGreaterThanOrEqual(3);
    expect(later.suggestions).toBeGreaterThanOrEqual(1);

    // The batch's first entry paid by a line carrying its reference: the old suggestion names it, so it goes.
    const paid = await load([{ amount: '112.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: ref }]);
    expect(paid.automatic).toBe(1);
    expect(await suggestionsOfLine(lineId!)).toEqual([]);
  });
});
