import type { EntryResult, EntryToReconcile } from './reconciliation.js';
import { OUTCOMES, type Outcome } from './remittance-outcomes.js';

/** How many entries have each outcome. */
export function countOutcomes(results: readonly { outcome: Outcome }[]): Record<Outcome, number> {
  const counts = byOutcome();
  for (const r of results) counts[r.outcome] += 1;
  return counts;
}

const byOutcome = () => Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;

/** Entries, and their amounts, by outcome: added up chunk by chunk while a batch is reconciled. */
export interface OutcomeTally {
  entries: number;
  counts: Record<Outcome, number>;
  cents: Record<Outcome, number>;
}

export const emptyTally = (): OutcomeTally => ({ entries: 0, counts: byOutcome(), cents: byOutcome() });

/** Adds decided entries (`results` of `entries`, matched by position) to the tally. */
export function addToTally(tally: OutcomeTally, entries: readonly EntryToReconcile[], results: readonly EntryResult[]) {
  const amountOf = new Map(entries.map((e) => [e.position, e.amountCents]));
  for (const result of results) {
    tally.entries += 1;
    tally.counts[result.outcome] += 1;
    tally.cents[result.outcome] += amountOf.get(result.position) ?? 0;
  }
}
