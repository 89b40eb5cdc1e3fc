import { createHash } from 'node:crypto';
import type { ImportProblem } from '../operators/operator-errors.js';

/** A line read from a statement file, before it is stored: what every format's reader produces. */
export interface ParsedLine {
  /** Where it is in the file: the CSV line, or the line of the camt.053 entry's <Ntry> tag. */
  lineNo: number;
  account: string;
  bookedOn: string;
  valueOn: string | null;
  credit: boolean;
  amountCents: number;
  description: string;
  reference: string | null;
  /** The bank's own reference of the entry (camt.053 AcctSvcrRef, or a mapped column). */
  bankRef: string | null;
}

export interface ParsedStatement {
  lines: ParsedLine[];
  problems: ImportProblem[];
  /** The statement's own id when the file has one (camt.053 Stmt/Id). */
  statementRef: string | null;
  /** Entries left out on purpose (camt.053 entries not booked yet). */
  skipped: number;
}

export const problem = (lineNo: number | 'file', field: string, message: string): ImportProblem => ({
  row: lineNo === 'file' ? 'file' : `line ${lineNo}`,
  field,
  message,
});

/**
 * What makes a line the same line in another statement: the bank's entry reference on its account; without one,
 * its account, date, direction, amount and description, with how many identical lines came before it in the same
 * file (two equal donations on one day are two lines, in this statement and in an overlapping one).
 *
 * The returned function gives each line's key, called for the file's lines in their order. It remembers the digest
 * of each line's fingerprint, not the fingerprint, so that the keys can be made as the lines are stored, a chunk at
 * a time, without the whole statement's fingerprints held.
 */
export function dedupeKeyer(): (line: ParsedLine) => string {
  const seen = new Map<string, number>();
  return (line) => {
    if (line.bankRef) return `ref:${line.account}:${line.bankRef}`;
    const fingerprint = [line.account, line.bookedOn, line.credit ? 'C' : 'D', line.amountCents, line.description];
    const digest = createHash('sha256').update(JSON.stringify(fingerprint)).digest('base64url');
    const occurrence = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, occurrence);
    return `fp:${digest}#${occurrence}`;
  };
}

export const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');
