import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmSuggestion, matchAgain, unmatch } from '../../src/services/bank-statements/decisions.js';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { bankLines, openSuggestions, unpaidEntries } from '../../src/services/bank-statements/listings.js';
import { InvalidInputError } from '../../src/services/operators/operator-errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch } from '../reconciliation/support.js';
import { camt053, dayOf, expectedBatch, operatorOf, settingsOf, unique } from './support.js';

/**
 * The work list of open entries (migration 045, docs/decisions/0074-operators-listings-by-key.md): after every change
 * an entry can go through — reconciled, paid automatically, undone, paid by a confirmed suggestion, matched again —
 * it holds exactly the `matched` entries without an active match link, and the unpaid list reads it by key.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(() => t?.close());

const ops = () => operatorOf(t);
const keys = (rows: { batch_id: string; position: number }[]) => rows.map((r) => `${r.batch_id}:${r.position}`).sort();

/** The list as the triggers keep it, and as its definition computes it from every entry and link. */
async function expectListRight() {
  const kept = await t.db.selectFrom('bank_open_entries').select(['batch_id', 'position']).execute();
  const { rows: defined } = await sql<{ batch_id: string; position: number }>`
    select e.batch_id, e.position from remittance_entries e
    where e.outcome = 'matched'
      and not exists (select from bank_match_entries me
                      where me.batch_id = e.batch_id and me.position = e.position and me.active)`.execute(t.db);
  expect(keys(kept)).toEqual(keys(defined));
  return new Set(keys(kept));
}
const load = (entries: Parameters<typeof camt053>[0]) =>
  importStatement(ops(), settingsOf(t), { fileName: `${unique('s')}.xml`, content: camt053(entries) });
const openKeysOf = async (batchId: string) => [...(await expectListRight())].filter((k) => k.startsWith(batchId));

describe('the work list of open entries', () => {
  it('holds matched entries only, from reconciliation on', async () => {
    const donation = await donate(t, '14.00');
    // One entry matched (money expected), one unknown donation (an exception, never expected from the bank).
    const batchId = await postBatch(t, [
      { bankReferenceId: bankReference(), amount: 14, donationIds: [donation] },
      { bankReferenceId: bankReference(), amount: 9, donationIds: ['DON-NOSUCH1'] },
    ]);
    expect(await openKeysOf(batchId)).toEqual([]);
    await t.reconcile();
    expect(await openKeysOf(batchId)).toEqual([`${batchId}:0`]);
  });

  it('follows a match made automatically, undone, made again by another line, and a suggestion confirmed', async () => {
    const ref = unique('WL-');
    const batchId = await expectedBatch(t, [{ ref, amount: '31.00' }]);
    expect(await openKeysOf(batchId)).toEqual([`${batchId}:0`]);

    await load([{ amount: '31.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: ref }]);
    expect(await openKeysOf(batchId)).toEqual([]);

    const [line] = (await bankLines(ops(), settingsOf(t), { unmatched: false, limit: 1000 })).filter(
      (l) => l.reference === ref,
    );
    await unmatch(ops(), settingsOf(t), line!.matchId!, 'the bank reversed this credit');
    expect(await openKeysOf(batchId)).toEqual([`${batchId}:0`]);

    // Still open after a matching run (the undone line waits for an operator); paid by the bank's next line.
    await matchAgain(ops(), settingsOf(t));
    expect(await openKeysOf(batchId)).toEqual([`${batchId}:0`]);
    await load([{ amount: '31.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: ref }]);
    expect(await openKeysOf(batchId)).toEqual([]);

    // Paid by a line a cent off: suggested, not matched; confirmed, the entry leaves the list.
    const other = unique('WL-');
    const second = await expectedBatch(t, [{ ref: other, amount: '12.00' }]);
    await load([{ amount: '12.50', booked: dayOf(t), bankRef: unique('BK'), ustrd: [other] }]);
    expect(await openKeysOf(second)).toEqual([`${second}:0`]);
    const [suggestion] = (await openSuggestions(ops(), 1000)).filter((s) =>
      s.entries.some((e) => e.batchId === second),
    );
    await confirmSuggestion(ops(), settingsOf(t), suggestion!.id);
    expect(await openKeysOf(second)).toEqual([]);
  });
});

describe('the unpaid list, by key', () => {
  it('gives every open entry once, oldest batch first, page after page', async () => {
    for (const amounts of [['1.00', '2.00', '3.00'], ['4.00'], ['5.00', '6.00']])
      await expectedBatch(
        t,
        amounts.map((amount) => ({ ref: unique('PG-'), amount })),
      );
    const whole = await unpaidEntries(ops(), settingsOf(t), { limit: 1000 });
    expect(whole.next).toBeNull();
    expect(whole.items.length).toBeGreaterThanOrEqual(6);
    const walked = [];
    let after: string | undefined;
    for (let pages = 0; pages < 100; pages += 1) {
      const page = await unpaidEntries(ops(), settingsOf(t), { limit: 2, ...(after ? { after } : {}) });
      walked.push(...page.items);
      if (page.next === null) break;
      after = page.next;
    }
    expect(walked).toEqual(whole.items);
    const order = whole.items.map((e) => e.receivedAt.getTime());
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('refuses a cursor it did not give, naming the option', async () => {
    for (const bad of [
      'nonsense',
      Buffer.from('["x",1]').toString('base64url'),
      Buffer.from('{}').toString('base64url'),
    ])
      await expect(unpaidEntries(ops(), settingsOf(t), { limit: 5, after: bad })).rejects.toThrow(
        new InvalidInputError('after: is not a cursor this list gave (pass back the "next" of the page before).'),
      );
  });
});
