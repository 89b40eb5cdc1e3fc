import { formatCents } from './money.js';
import { referenceSimilarity } from './reference-similarity.js';
import { normaliseReference } from './bank-line.js';

/**
 * Ranked suggestions of which bank lines paid which remittance entries, for an operator to confirm
 * (docs/bank-statements.md, "Suggestions"). Pure: given the unmatched credit lines and the open entries, the
 * settings and what operators rejected, it returns every suggestion with its score and reasons in words.
 */

export interface OpenLine {
  id: number;
  bookedOn: string;
  amountCents: number;
  /** tokensOf(reference, description). */
  words: string[];
}

export interface OpenEntry {
  /** `batchId:position`. */
  key: string;
  batchId: string;
  bankReferenceId: string;
  amountCents: number;
  /** The date the batch was received, in the foundation's time zone. */
  receivedOn: string;
  /** Its batch's open total, when only some of the batch's entries are passed (suggestionCandidate). */
  batchOpenCents?: number;
}

export interface MatchSettings {
  /** A line and the entries it pays may differ by this many cents. */
  toleranceCents: number;
  /** A line booked this many days before or after the batch was received can pay its entries. */
  days: number;
  /** One-to-one suggestions kept per line, best first. */
  perLine: number;
}

export type SuggestionRule = 'one_to_one' | 'line_pays_entries' | 'lines_pay_entry';

export interface Suggestion {
  rule: SuggestionRule;
  lineIds: number[];
  entryKeys: string[];
  signature: string;
  score: number;
  reasons: string;
  lineCents: number;
  entryCents: number;
}

/** Nearest amounts looked at per line: enough for every plausible candidate, bounded whatever the data. */
const CANDIDATES_PER_LINE = 200;

/** The same lines and the same entries, whatever the order: what a rejection is remembered by. */
export function signatureOf(lineIds: readonly number[], entryKeys: readonly string[]): string {
  return `L:${[...lineIds].sort((a, b) => a - b).join(',')}|E:${[...entryKeys].sort().join(',')}`;
}

export function daysApart(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
}

/**
 * 0–100: reference similarity gives up to 50, the amount 30 when equal (up to 20 within the tolerance, less the
 * further off), the dates up to 20 (less the further apart).
 */
function scoreOf(similarity: number, differenceCents: number, days: number, settings: MatchSettings): number {
  const amount = differenceCents === 0 ? 30 : 20 * (1 - Math.abs(differenceCents) / (settings.toleranceCents + 1));
  return Math.round(50 * similarity + amount + 20 * (1 - days / (settings.days + 1)));
}

function reasonsOf(similarity: number, differenceCents: number, days: number): string {
  const amount =
    differenceCents === 0
      ? 'amount equal'
      : `line ${formatCents(Math.abs(differenceCents))} ${differenceCents > 0 ? 'more' : 'less'} than the entries`;
  return `reference ${Math.round(similarity * 100)}% alike; ${amount}; ${days} day${days === 1 ? '' : 's'} apart`;
}

function suggestion(
  rule: SuggestionRule,
  lines: readonly OpenLine[],
  entries: readonly OpenEntry[],
  similarity: number,
  settings: MatchSettings,
): Suggestion {
  const lineCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const entryCents = entries.reduce((sum, e) => sum + e.amountCents, 0);
  const days = Math.max(...lines.flatMap((l) => entries.map((e) => daysApart(l.bookedOn, e.receivedOn))));
  const lineIds = lines.map((l) => l.id);
  const entryKeys = entries.map((e) => e.key);
  return {
    rule,
    lineIds,
    entryKeys,
    signature: signatureOf(lineIds, entryKeys),
    score: scoreOf(similarity, lineCents - entryCents, days, settings),
    reasons: reasonsOf(similarity, lineCents - entryCents, days),
    lineCents,
    entryCents,
  };
}

/** Every suggestion for these lines and entries, best first, leaving out the rejected signatures. */
export function suggestMatches(
  lines: readonly OpenLine[],
  entries: readonly OpenEntry[],
  settings: MatchSettings,
  rejected: ReadonlySet<string>,
): Suggestion[] {
  const index = indexEntries(entries);
  const all = [
    ...lines.flatMap((line) => oneToOne(line, index, settings)),
    ...lines.flatMap((line) => linePaysEntries(line, index, settings)),
    ...linesPayEntry(lines, entries, settings),
  ];
  const seen = new Set<string>();
  return all
    .filter((s) => !rejected.has(s.signature) && !seen.has(s.signature) && seen.add(s.signature))
    .sort((a, b) => b.score - a.score || a.lineIds[0]! - b.lineIds[0]!);
}

interface EntryIndex {
  byAmount: OpenEntry[];
  byReference: Map<string, OpenEntry[]>;
  batches: { batchId: string; entries: OpenEntry[]; cents: number }[];
}

function indexEntries(entries: readonly OpenEntry[]): EntryIndex {
  const byReference = new Map<string, OpenEntry[]>();
  const byBatch = new Map<string, OpenEntry[]>();
  for (const entry of entries) {
    push(byReference, normaliseReference(entry.bankReferenceId), entry);
    push(byBatch, entry.batchId, entry);
  }
  const batches = [...byBatch]
    .map(([batchId, list]) => ({
      batchId,
      entries: list,
      cents: list[0]!.batchOpenCents ?? list.reduce((sum, e) => sum + e.amountCents, 0),
    }))
    .sort((a, b) => a.cents - b.cents);
  return { byAmount: [...entries].sort((a, b) => a.amountCents - b.amountCents), byReference, batches };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The first index of `sorted` whose value is at least `target`. */
export function lowerBound<T>(sorted: readonly T[], value: (item: T) => number, target: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (value(sorted[middle]!) < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

const within = (line: OpenLine, entry: OpenEntry, settings: MatchSettings) =>
  daysApart(line.bookedOn, entry.receivedOn) <= settings.days;

/** One line for one entry: the entries named by the line's words and those nearest its amount, within bounds. */
function oneToOne(line: OpenLine, index: EntryIndex, settings: MatchSettings): Suggestion[] {
  const candidates = new Set(line.words.flatMap((word) => index.byReference.get(word) ?? []));
  for (const entry of nearestAmounts(index.byAmount, line.amountCents, settings.toleranceCents)) candidates.add(entry);
  return [...candidates]
    .filter((e) => Math.abs(e.amountCents - line.amountCents) <= settings.toleranceCents && within(line, e, settings))
    .map((e) => suggestion('one_to_one', [line], [e], referenceSimilarity(e.bankReferenceId, line.words), settings))
    .sort((a, b) => b.score - a.score)
    .slice(0, settings.perLine);
}

/** Entries whose amounts are within `tolerance` of `cents`, nearest first, at most CANDIDATES_PER_LINE. */
function nearestAmounts(sorted: readonly OpenEntry[], cents: number, tolerance: number): OpenEntry[] {
  const low = lowerBound(sorted, (e) => e.amountCents, cents);
  const found: OpenEntry[] = [];
  let up = low;
  let down = low - 1;
  while (found.length < CANDIDATES_PER_LINE) {
    const above = up < sorted.length ? sorted[up]!.amountCents - cents : Infinity;
    const below = down >= 0 ? cents - sorted[down]!.amountCents : Infinity;
    if (Math.min(above, below) > tolerance) break;
    found.push(above <= below ? sorted[up++]! : sorted[down--]!);
  }
  return found;
}

/**
 * One line paying several entries of one batch: every open entry of a batch whose total is the line's amount
 * (within the tolerance), or the entries of one batch whose references the line carries and whose total is.
 */
function linePaysEntries(line: OpenLine, index: EntryIndex, settings: MatchSettings): Suggestion[] {
  const fits = (entries: readonly OpenEntry[]) =>
    entries.length >= 2 &&
    Math.abs(entries.reduce((sum, e) => sum + e.amountCents, 0) - line.amountCents) <= settings.toleranceCents &&
    entries.every((e) => within(line, e, settings));
  const { batches } = index;
  const groups: OpenEntry[][] = [];
  for (
    let i = lowerBound(batches, (b) => b.cents, line.amountCents - settings.toleranceCents);
    i < batches.length;
    i += 1
  ) {
    if (batches[i]!.cents > line.amountCents + settings.toleranceCents) break;
    if (fits(batches[i]!.entries)) groups.push(batches[i]!.entries);
  }
  const named = new Map<string, OpenEntry[]>();
  for (const entry of new Set(line.words.flatMap((word) => index.byReference.get(word) ?? [])))
    push(named, entry.batchId, entry);
  groups.push(...[...named.values()].filter(fits));
  return groups.map((entries) => {
    const similarity = entries.reduce((sum, e) => sum + referenceSimilarity(e.bankReferenceId, line.words), 0);
    return suggestion('line_pays_entries', [line], entries, similarity / entries.length, settings);
  });
}

/** Several lines paying one entry: two or more lines that carry its reference and add up to its amount. */
function linesPayEntry(lines: readonly OpenLine[], entries: readonly OpenEntry[], settings: MatchSettings) {
  const byWord = new Map<string, OpenLine[]>();
  for (const line of lines) for (const word of line.words) push(byWord, word, line);
  return entries.flatMap((entry) => {
    const carrying = (byWord.get(normaliseReference(entry.bankReferenceId)) ?? []).filter((l) =>
      within(l, entry, settings),
    );
    const cents = carrying.reduce((sum, l) => sum + l.amountCents, 0);
    if (carrying.length < 2 || Math.abs(cents - entry.amountCents) > settings.toleranceCents) return [];
    return [suggestion('lines_pay_entry', carrying, [entry], 1, settings)];
  });
}
