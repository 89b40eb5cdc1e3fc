import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  confirmSuggestion,
  matchAgain,
  rejectSuggestion,
  unmatch,
} from '../../src/services/bank-statements/decisions.js';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { bankLines, openSuggestions, unpaidEntries } from '../../src/services/bank-statements/listings.js';
import { listAudit } from '../../src/services/operators/audit.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../src/services/operators/operator-errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import {
  camt053,
  dayOf,
  expectedBatch,
  fundsEvents,
  fundsReceived,
  operatorOf,
  settingsOf,
  unique,
} from './support.js';

/**
 * Suggestions an operator confirms or rejects, and matches undone with a reason (docs/bank-statements.md,
 * "Decisions"): one line paying several entries, several lines paying one entry, each decision audited, partners told.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(() => t?.close());

const ops = () => operatorOf(t);
const load = async (entries: Parameters<typeof camt053>[0]) => {
  const result = await importStatement(ops(), settingsOf(t), {
    fileName: `${unique('s')}.xml`,
    content: camt053(entries),
  });
  return result.statementId!;
};
const linesOf = async (statementId: string) =>
  (
    await t.db
      .selectFrom('bank_lines')
      .select('id')
      .where('statement_id', '=', statementId)
      .orderBy('line_no')
      .execute()
  ).map((l) => Number(l.id));
const suggestionFor = async (lineIds: number[]) =>
  (await openSuggestions(ops(), 1000)).filter((s) => s.lines.map((l) => l.id).join() === lineIds.join());
const audited = (action: string) => listAudit(ops(), { action, limit: 50 });

describe('one line paying several entries, several lines paying one entry', () => {
  it('suggests one line for a whole batch; confirmed, every entry’s money is received, audited', async () => {
    const batchId = await expectedBatch(t, [
      { ref: unique('MULTI-'), amount: '112.00' },
      { ref: unique('MULTI-'), amount: '8.00' },
    ]);
    const [lineId] = await linesOf(
      await load([{ amount: '120.00', booked: dayOf(t, 1), bankRef: unique('BK'), ustrd: ['STOREFRONT SETTLEMENT'] }]),
    );
    const [suggestion] = (await suggestionFor([lineId!])).filter((s) => s.rule === 'line_pays_entries');
    expect(suggestion).toMatchObject({ lineCents: 12_000, entryCents: 12_000 });
    expect(suggestion!.entries.map((e) => [e.batchId, e.index])).toEqual([
      [batchId, 0],
      [batchId, 1],
    ]);
    expect(await fundsReceived(t, batchId)).toEqual([false, false]);

    const match = await confirmSuggestion(ops(), settingsOf(t), suggestion!.id);
    expect(await fundsReceived(t, batchId)).toEqual([true, true]);
    expect((await fundsEvents(t, batchId)).map((e) => e.data.entries.map((x) => x.fundsReceived))).toEqual([
      [true, true],
    ]);
    expect(await suggestionFor([lineId!])).toEqual([]);
    const [entry] = await audited('bank.confirm');
    expect(entry).toMatchObject({ actor: 'finance@example.org', subject: `match ${match.matchId}` });
    expect(entry!.details).toMatchObject({
      suggestionId: suggestion!.id,
      rule: 'line_pays_entries',
      lineIds: [lineId],
    });
    await expect(confirmSuggestion(ops(), settingsOf(t), suggestion!.id)).rejects.toThrow(ConflictError);
  });

  it('suggests lines that each carry an entry’s reference and add up to it; confirmed, it is received', async () => {
    const ref = unique('SPLIT-');
    const batchId = await expectedBatch(t, [{ ref, amount: '93.00' }]);
    const lineIds = await linesOf(
      await load([
        { amount: '40.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: [`PART 1 ${ref}`] },
        { amount: '53.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: [`PART 2 ${ref}`] },
      ]),
    );
    const [suggestion] = await suggestionFor(lineIds);
    expect(suggestion).toMatchObject({ rule: 'lines_pay_entry', score: 100, lineCents: 9_300 });
    await confirmSuggestion(ops(), settingsOf(t), suggestion!.id);
    expect(await fundsReceived(t, batchId)).toEqual([true]);
    const lines = await bankLines(ops(), settingsOf(t), { unmatched: true, limit: 1000 });
    expect(lines.filter((l) => lineIds.includes(l.id))).toEqual([]);
  });
});

describe('rejecting and undoing', () => {
  it('rejects a suggestion with a reason, audited; the same pair is not suggested again', async () => {
    const ref = unique('NEAR-');
    await expectedBatch(t, [{ ref, amount: '61.00' }]);
    const [lineId] = await linesOf(
      await load([{ amount: '61.40', booked: dayOf(t, -2), bankRef: unique('BK'), ustrd: [ref] }]),
    );
    const [suggestion] = await suggestionFor([lineId!]);
    expect(suggestion).toMatchObject({ rule: 'one_to_one', reasons: expect.stringContaining('0.40 more') });
    await rejectSuggestion(ops(), suggestion!.id, '  the donor paid a fee on top, another gift  ');
    const [entry] = await audited('bank.reject');
    expect(entry).toMatchObject({ subject: `suggestion ${suggestion!.id}` });
    expect(entry!.details).toMatchObject({ reason: 'the donor paid a fee on top, another gift', lineIds: [lineId] });
    await matchAgain(ops(), settingsOf(t));
    expect(await suggestionFor([lineId!])).toEqual([]);
    await expect(rejectSuggestion(ops(), suggestion!.id)).rejects.toThrow(/already rejected by finance@example.org/);
    await expect(rejectSuggestion(ops(), 987_654)).rejects.toThrow(NotFoundError);
  });

  it('unmatches with a reason, audited: the money is no longer received, the partner is told, never again', async () => {
    const ref = unique('UNDO-');
    const batchId = await expectedBatch(t, [{ ref, amount: '19.00' }]);
    const [lineId] = await linesOf(
      await load([{ amount: '19.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: ref }]),
    );
    expect(await fundsReceived(t, batchId)).toEqual([true]);
    const [line] = (await bankLines(ops(), settingsOf(t), { unmatched: false, limit: 1000 })).filter(
      (l) => l.id === lineId,
    );
    await expect(unmatch(ops(), settingsOf(t), line!.matchId!, '  ')).rejects.toThrow(InvalidInputError);

    const undone = await unmatch(ops(), settingsOf(t), line!.matchId!, 'the bank reversed this credit');
    expect(undone.run.automatic).toBe(0);
    expect(await fundsReceived(t, batchId)).toEqual([false]);
    const told = await fundsEvents(t, batchId);
    expect(told.map((e) => e.data.entries[0]!.fundsReceived)).toEqual([true, false]);
    expect(told[1]!.data.entries[0]!.fundsReceivedAt).toBeNull();
    const [entry] = await audited('bank.unmatch');
    expect(entry!.details).toMatchObject({ reason: 'the bank reversed this credit', lineIds: [lineId] });
    // Neither matched automatically again nor suggested with the same entry; both are listed as open with their age.
    expect(await suggestionFor([lineId!])).toEqual([]);
    const unpaid = (await unpaidEntries(ops(), settingsOf(t), { limit: 1000 })).items;
    expect(unpaid.find((e) => e.batchId === batchId)).toMatchObject({ bankReferenceId: ref, amountCents: 1_900 });
    const open = await bankLines(ops(), settingsOf(t), { unmatched: true, limit: 1000 });
    expect(open.filter((l) => l.id === lineId)).toMatchObject([{ matchId: null }]);
    await expect(unmatch(ops(), settingsOf(t), line!.matchId!, 'again')).rejects.toThrow(/already undone/);
  });

  it('refuses to confirm a suggestion whose entry was received since', async () => {
    const ref = unique('RACE-');
    const batchId = await expectedBatch(t, [{ ref, amount: '27.00' }]);
    const [lineId] = await linesOf(
      await load([{ amount: '27.50', booked: dayOf(t), bankRef: unique('BK'), ustrd: [ref] }]),
    );
    const [stale] = await suggestionFor([lineId!]);
    // Another line pays the entry exactly: matched automatically, which settles the suggestion.
    await load([{ amount: '27.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: [ref] }]);
    expect(await fundsReceived(t, batchId)).toEqual([true]);
    await expect(confirmSuggestion(ops(), settingsOf(t), stale!.id)).rejects.toThrow(NotFoundError);
  });
});
