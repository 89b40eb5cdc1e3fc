import { describe, expect, it } from 'vitest';
import { parseBankAmount, parseBankDate, tokensOf } from '../../src/domain/bank-line.js';
import { signatureOf, suggestMatches, type OpenEntry, type OpenLine } from '../../src/domain/bank-matching.js';
import { referenceSimilarity } from '../../src/domain/reference-similarity.js';

/** The pure rules of bank lines and suggestions (docs/bank-statements.md, "Suggestions"). */
const settings = { toleranceCents: 100, days: 7, perLine: 3 };
const line = (id: number, bookedOn: string, amountCents: number, text: string): OpenLine => ({
  id,
  bookedOn,
  amountCents,
  words: tokensOf(null, text),
});
const entry = (key: string, bankReferenceId: string, amountCents: number, receivedOn: string): OpenEntry => ({
  key,
  batchId: key.split(':')[0]!,
  bankReferenceId,
  amountCents,
  receivedOn,
});

const lines = [
  line(1, '2026-03-10', 10_000, 'DIRECT CREDIT ABC123'),
  line(2, '2026-03-11', 5_000, 'BATCH B5'),
  line(3, '2026-03-10', 4_000, 'SPLIT-9 PART'),
  line(4, '2026-03-10', 5_300, 'SPLIT-9'),
];
const entries = [
  entry('b1:0', 'ABC123', 10_000, '2026-03-10'),
  entry('b2:0', 'ZZZ999', 10_000, '2026-03-09'),
  entry('b3:0', 'ABC124', 10_050, '2026-03-12'),
  // Beyond the amount tolerance (1.01 more) and beyond the date bound (8 days): never suggested.
  entry('b4:0', 'ABC123', 10_101, '2026-03-10'),
  entry('b7:0', 'ABC123', 10_000, '2026-03-18'),
  // One line paying a batch of two entries.
  entry('b5:0', 'R-1', 3_000, '2026-03-10'),
  entry('b5:1', 'R-2', 2_000, '2026-03-10'),
  // Two lines paying one entry.
  entry('b6:0', 'split-9', 9_300, '2026-03-10'),
];

describe('suggestMatches', () => {
  const all = suggestMatches(lines, entries, settings, new Set());

  it('ranks by reference similarity, amount and date distance, within the tolerances', () => {
    expect(all.map((s) => [s.rule, s.lineIds, s.entryKeys, s.score])).toEqual([
      ['one_to_one', [1], ['b1:0'], 100],
      ['lines_pay_entry', [3, 4], ['b6:0'], 100],
      ['one_to_one', [1], ['b3:0'], 67],
      ['one_to_one', [1], ['b2:0'], 48],
      ['line_pays_entries', [2], ['b5:0', 'b5:1'], 48],
    ]);
  });

  it('says why in words', () => {
    expect(all[0]!.reasons).toBe('reference 100% alike; amount equal; 0 days apart');
    expect(all[2]!.reasons).toBe('reference 83% alike; line 0.50 less than the entries; 2 days apart');
    expect(all[4]).toMatchObject({ lineCents: 5_000, entryCents: 5_000 });
  });

  it('keeps BANK_SUGGESTIONS_PER_LINE one-to-one suggestions per line, and leaves out what was rejected', () => {
    const two = suggestMatches(lines, entries, { ...settings, perLine: 2 }, new Set());
    expect(two.filter((s) => s.lineIds[0] === 1).map((s) => s.entryKeys)).toEqual([['b1:0'], ['b3:0']]);
    const rejected = new Set([signatureOf([1], ['b1:0']), signatureOf([4, 3], ['b6:0'])]);
    const left = suggestMatches(lines, entries, settings, rejected);
    expect(left.map((s) => s.entryKeys[0])).toEqual(['b3:0', 'b2:0', 'b5:0']);
  });

  it('follows the tolerances it is given', () => {
    const strict = suggestMatches(lines, entries, { toleranceCents: 0, days: 0, perLine: 3 }, new Set());
    expect(strict.map((s) => [s.lineIds, s.entryKeys])).toEqual([
      [[1], ['b1:0']],
      [[3, 4], ['b6:0']],
    ]);
    const loose = suggestMatches(lines, entries, { toleranceCents: 101, days: 8, perLine: 10 }, new Set());
    expect(loose.filter((s) => s.lineIds[0] === 1).map((s) => s.entryKeys[0])).toEqual(
      expect.arrayContaining(['b4:0', 'b7:0']),
    );
  });
});

describe('bank line values', () => {
  it('reads amounts as banks write them, in cents, never through a float', () => {
    expect(['+1,234.56', '-12.30', '$50', '(7.05)', '0.1', '12.345', '1,23.00'].map(parseBankAmount)).toEqual([
      123_456,
      -1_230,
      5_000,
      -705,
      10,
      null,
      null,
    ]);
  });

  it('reads each date format, refusing days that do not exist', () => {
    expect(parseBankDate('5/3/2026', 'DD/MM/YYYY')).toBe('2026-03-05');
    expect(parseBankDate('3/5/2026', 'MM/DD/YYYY')).toBe('2026-03-05');
    expect(parseBankDate('05-Mar-26', 'DD-MMM-YY')).toBe('2026-03-05');
    expect(parseBankDate('05.03.2026', 'DD.MM.YYYY')).toBe('2026-03-05');
    expect(parseBankDate('30/02/2026', 'DD/MM/YYYY')).toBeNull();
    expect(parseBankDate('2026-13-01', 'YYYY-MM-DD')).toBeNull();
  });

  it('finds references in a line’s text whatever spaces, dashes and case the bank used', () => {
    expect(tokensOf('REF:B-1', 'Payment (abc)')).toEqual(['REF:B-1', 'REF', 'B-1', 'PAYMENT', 'ABC']);
    expect(referenceSimilarity('B-1234', tokensOf(null, 'b 1234 storefront'))).toBe(1);
    expect(referenceSimilarity('ABC124', ['ABC123'])).toBeCloseTo(5 / 6);
    expect(referenceSimilarity('', ['ABC'])).toBe(0);
  });
});
