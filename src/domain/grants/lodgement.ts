/**
 * The lodgement reference of a paid grant: what the club's statement shows and what the bank's lines carry back
 * (docs/decisions/0065-grant-lodgement-references-and-the-balancing-record.md). `FG<round>-<line>`: unique because
 * round numbers are, and at most 18 characters (the ABA field) for any round below 10^9 and line below 10^6.
 */
export function lodgementReference(roundNumber: number, line: number): string {
  return `FG${roundNumber}-${line}`;
}

const LODGEMENT_REFERENCE = /\bFG\d{1,9}-\d{1,6}\b/g;

/** The lodgement references a bank line's reference or description carries (upper-cased). */
export function lodgementReferencesIn(text: string): string[] {
  return [...new Set(text.toUpperCase().match(LODGEMENT_REFERENCE) ?? [])];
}
