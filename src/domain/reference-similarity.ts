/**
 * How alike a remittance entry's bank reference and a bank line's text are, from 0 (nothing alike) to 1 (the line
 * carries the reference): the Levenshtein distance (insertions, deletions and substitutions of one character each)
 * normalised by the longer string, on letters and digits only, so "B-1234" and "b 1234" are the same reference.
 */

/** Letters and digits, upper-cased: banks drop or add spaces and dashes in references. */
const comparable = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Edits to turn `a` into `b` (Wagner–Fischer, two rows). */
function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** 1 − distance / the longer length; 1 for equal strings, 0 when either is empty. */
function ratio(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  return 1 - levenshtein(a, b) / Math.max(a.length, b.length);
}

/** Words longer than this are cut before comparing: the distance costs their lengths multiplied. */
const MAX_WORD = 64;
/** A reference this long or longer found inside the line's text counts as carried (shorter ones match by chance). */
const MIN_CARRIED = 4;

/**
 * The similarity of an entry's reference to a bank line: 1 when the line's letters and digits contain it (at least
 * MIN_CARRIED of them), otherwise the best ratio against any of the line's words.
 */
export function referenceSimilarity(reference: string, lineWords: readonly string[]): number {
  const wanted = comparable(reference).slice(0, MAX_WORD);
  if (wanted.length === 0) return 0;
  const text = lineWords.map(comparable).join('');
  if (wanted.length >= MIN_CARRIED && text.includes(wanted)) return 1;
  let best = 0;
  for (const word of lineWords) best = Math.max(best, ratio(wanted, comparable(word).slice(0, MAX_WORD)));
  return best;
}
