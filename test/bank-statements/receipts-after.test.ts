import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmSuggestion, unmatch } from '../../src/services/bank-statements/decisions.js';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { bankLines, openSuggestions } from '../../src/services/bank-statements/listings.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { donate, postBatch } from '../reconciliation/support.js';
import { camt053, dayOf, operatorOf, settingsOf, unique } from './support.js';

/**
 * RECEIPTS_AFTER=funds_received (docs/bank-statements.md, "Receipts"): a donation settled by a remittance entry is
 * receipted only when a bank line is matched to that entry, automatically or by an operator.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RECEIPTS_AFTER: 'funds_received' } });
}, 180_000);
afterAll(() => t?.close());

const receiptsOf = (references: string[]) =>
  t.db
    .selectFrom('receipts')
    .select(['donation_reference_id', 'issued_at'])
    .where('donation_reference_id', 'in', references)
    .where('voided_at', 'is', null)
    .orderBy('donation_reference_id')
    .execute();

async function settled(entries: { ref: string; amount: string }[]) {
  const donations: string[] = [];
  const remittances = [];
  for (const e of entries) {
    const id = await donate(t, e.amount);
    donations.push(id);
    remittances.push({ bankReferenceId: e.ref, amount: Number(e.amount), donationIds: [id] });
  }
  await postBatch(t, remittances);
  await t.reconcile();
  return donations;
}

const load = (entries: Parameters<typeof camt053>[0]) =>
  importStatement(operatorOf(t), settingsOf(t), { fileName: `${unique('r')}.xml`, content: camt053(entries) });

describe('receipts after funds received', () => {
  it('holds a settled donation’s receipt until a bank line pays its entry, automatically', async () => {
    const ref = unique('RCPT-');
    const [donation] = await settled([{ ref, amount: '45.00' }]);
    expect(await receiptsOf([donation!])).toEqual([]);
    await load([{ amount: '45.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: ref }]);
    expect(await receiptsOf([donation!])).toEqual([{ donation_reference_id: donation, issued_at: t.clock.now() }]);
  });

  it('issues on an operator’s confirmation; an undone match leaves the receipt in force', async () => {
    const [a, b] = [unique('RCPT-'), unique('RCPT-')];
    const donations = await settled([
      { ref: a, amount: '21.00' },
      { ref: b, amount: '14.00' },
    ]);
    const result = await load([{ amount: '35.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: ['SETTLEMENT'] }]);
    expect(result.automatic).toBe(0);
    expect(await receiptsOf(donations)).toEqual([]);
    const [line] = (await bankLines(operatorOf(t), settingsOf(t), { unmatched: true, limit: 100 })).filter(
      (l) => l.amountCents === 3_500,
    );
    const [suggestion] = (await openSuggestions(operatorOf(t), 100)).filter((s) => s.lines[0]!.id === line!.id);
    const match = await confirmSuggestion(operatorOf(t), settingsOf(t), suggestion!.id);
    expect((await receiptsOf(donations)).map((r) => r.donation_reference_id)).toEqual([...donations].sort());
    await unmatch(operatorOf(t), settingsOf(t), match.matchId, 'wrong batch');
    expect(await receiptsOf(donations)).toHaveLength(2);
  });
});
