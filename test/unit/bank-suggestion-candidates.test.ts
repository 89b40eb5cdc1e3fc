import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suggestMatches, type OpenEntry, type OpenLine } from '../../src/domain/bank-matching.js';
import { suggestionCandidate } from '../../src/domain/bank-suggestion-candidates.js';

/**
 * The import drops open entries that suggestionCandidate refuses before building them (src/services/bank-statements/
 * matching.ts): the suggestions must be exactly those of every open entry, whatever the lines and entries.
 */
const settings = { toleranceCents: 50, days: 3, perLine: 3 };
const REFERENCES = ['R-1', 'R-2', 'ABC', 'abc ', 'X9', 'SPLIT'];
const DATES = ['2026-03-08', '2026-03-10', '2026-03-12', '2026-03-15'];

// Round amounts often, so that lines equal entries and batch totals as they do in real statements.
const cents = fc.oneof(fc.constantFrom(500, 1_000, 1_500, 2_000, 3_000, 4_000), fc.integer({ min: 100, max: 4_000 }));
const lineArb = fc.record({
  bookedOn: fc.constantFrom(...DATES),
  amountCents: cents,
  words: fc.subarray(['R-1', 'R-2', 'ABC', 'X9', 'SPLIT', 'CREDIT']),
});
const entryArb = fc.record({
  batch: fc.integer({ min: 0, max: 5 }),
  bankReferenceId: fc.constantFrom(...REFERENCES),
  amountCents: cents,
  receivedOn: fc.constantFrom(...DATES),
});

describe('suggestionCandidate', () => {
  it('leaves out only entries no suggestion could name: the suggestions are unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 6 }),
        fc.array(entryArb, { maxLength: 30 }),
        (ls, es) => {
          const lines: OpenLine[] = ls.map((l, i) => ({ id: i + 1, ...l }));
          const entries: OpenEntry[] = es.map((e, i) => ({
            key: `b${e.batch}:${i}`,
            batchId: `b${e.batch}`,
            bankReferenceId: e.bankReferenceId,
            amountCents: e.amountCents,
            receivedOn: e.receivedOn,
          }));
          const totals = new Map<string, number>();
          for (const e of entries) totals.set(e.batchId, (totals.get(e.batchId) ?? 0) + e.amountCents);
          const candidate = suggestionCandidate(lines, settings);
          const kept = entries
            .map((e) => ({ ...e, batchOpenCents: totals.get(e.batchId)! }))
            .filter((e) => candidate(e));
          expect(suggestMatches(lines, kept, settings, new Set())).toEqual(
            suggestMatches(lines, entries, settings, new Set()),
          );
        },
      ),
      { seed: 20261127, numRuns: 500 },
    );
  });

  it('keeps a partly passing batch at its whole open total: its passing entries alone pay no line', () => {
    // Two entries of 20.00 pass for the line of 20.00; alone they would add up to the line of 40.00.
    const lines: OpenLine[] = [
      { id: 1, bookedOn: '2026-03-10', amountCents: 2_000, words: [] },
      { id: 2, bookedOn: '2026-03-10', amountCents: 4_000, words: [] },
    ];
    const batch = [2_000, 2_000, 5_000].map((amountCents, i) => ({
      key: `b1:${i}`,
      batchId: 'b1',
      bankReferenceId: `R-${i}`,
      amountCents,
      receivedOn: '2026-03-10',
      batchOpenCents: 9_000,
    }));
    const kept = batch.filter(suggestionCandidate(lines, settings));
    expect(kept.map((e) => e.key)).toEqual(['b1:0', 'b1:1']);
    const rules = suggestMatches(lines, kept, settings, new Set()).map((s) => s.rule);
    expect(rules).toEqual(['one_to_one', 'one_to_one']);
  });

  it('refuses an entry far from every line in amount, batch total and reference', () => {
    const candidate = suggestionCandidate(
      [{ id: 1, bookedOn: '2026-03-10', amountCents: 1_000, words: ['ABC'] }],
      settings,
    );
    expect(candidate({ amountCents: 5_000, bankReferenceId: 'ZZZ', batchOpenCents: 9_000 })).toBe(false);
    expect(candidate({ amountCents: 1_040, bankReferenceId: 'ZZZ', batchOpenCents: 9_000 })).toBe(true);
    expect(candidate({ amountCents: 5_000, bankReferenceId: 'ZZZ', batchOpenCents: 960 })).toBe(true);
    expect(candidate({ amountCents: 5_000, bankReferenceId: ' abc', batchOpenCents: 9_000 })).toBe(true);
  });
});
