import { normaliseReference } from './bank-line.js';
import { lowerBound, type MatchSettings, type OpenLine } from './bank-matching.js';

/**
 * Whether an open entry can be in a suggestion for these lines: its amount, or its batch's open total (then every
 * entry of the batch passes), within the tolerance of a line's, or its reference among the lines' words. With each
 * passing entry's batch total, suggestMatches of those equals suggestMatches of all open entries (often 100,000s).
 */
export function suggestionCandidate(lines: readonly OpenLine[], settings: Pick<MatchSettings, 'toleranceCents'>) {
  const amounts = lines.map((l) => l.amountCents).sort((a, b) => a - b);
  const words = new Set(lines.flatMap((l) => l.words));
  const nearALine = (cents: number) =>
    (amounts[lowerBound(amounts, (a) => a, cents - settings.toleranceCents)] ?? Infinity) <=
    cents + settings.toleranceCents;
  return (entry: { amountCents: number; bankReferenceId: string; batchOpenCents: number }) =>
    nearALine(entry.amountCents) ||
    nearALine(entry.batchOpenCents) ||
    words.has(normaliseReference(entry.bankReferenceId));
}
