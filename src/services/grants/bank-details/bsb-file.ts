import { parse } from 'csv-parse/sync';
import { normaliseBsb } from '../../../domain/bsb.js';

/** One branch of the BSB directory the banks publish. */
export interface BsbBranch {
  bsb: string;
  bankCode: string;
  name: string;
  address: string;
  suburb: string;
  state: string;
  postcode: string;
  payments: string;
}

/** A line of the file left out, and why. */
export interface SkippedLine {
  line: number;
  reason: string;
}

export interface BsbFile {
  branches: BsbBranch[];
  skipped: SkippedLine[];
}

/**
 * Reads the BSB directory in its comma-separated form, one branch a line:
 * `"BSB","Bank code","Branch name","Address","Suburb","State","Postcode","Payments flags"`, quoted or not. Lines are
 * read one at a time, so one malformed line is skipped (with its number) instead of failing the file; a first line
 * naming the columns is a header, neither a branch nor a skipped line. A BSB listed twice keeps its first line.
 */
export function readBsbFile(content: string): BsbFile {
  const branches: BsbBranch[] = [];
  const skipped: SkippedLine[] = [];
  const firstLine = new Map<string, number>();
  const lines = content.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((text, index) => {
    const line = index + 1;
    if (text.trim() === '') return;
    const cells = cellsOf(text);
    if (!cells) return skipped.push({ line, reason: 'is not readable as comma-separated values' });
    if (line === 1 && /bsb/i.test(cells[0] ?? '') && !normaliseBsb(cells[0] ?? '')) return;
    const problem = branchProblem(cells);
    if (problem) return skipped.push({ line, reason: problem });
    const bsb = normaliseBsb(cells[0]!)!;
    const earlier = firstLine.get(bsb);
    if (earlier !== undefined)
      return skipped.push({ line, reason: `BSB ${bsb} is listed again (first on line ${earlier})` });
    firstLine.set(bsb, line);
    const [, bankCode, name, address, suburb, state, postcode, payments] = cells;
    branches.push({
      bsb,
      bankCode: bankCode!,
      name: name!,
      address: address ?? '',
      suburb: suburb ?? '',
      state: state ?? '',
      postcode: postcode ?? '',
      payments: payments ?? '',
    });
  });
  return { branches, skipped };
}

function cellsOf(text: string): string[] | null {
  try {
    const records: string[][] = parse(text, { trim: true, relax_quotes: true, relax_column_count: true });
    return records[0] ?? null;
  } catch {
    return null;
  }
}

function branchProblem(cells: string[]): string | null {
  if (cells.length < 3) return `has ${cells.length} field(s); a branch has at least BSB, bank code and name`;
  if (cells.length > 8) return `has ${cells.length} fields; a branch has at most 8`;
  if (!normaliseBsb(cells[0]!)) return `${JSON.stringify(cells[0])} is not a BSB (NNN-NNN)`;
  if (!/^[A-Za-z0-9]{1,4}$/.test(cells[1]!)) return `${JSON.stringify(cells[1])} is not a bank code`;
  if (cells[2]!.trim() === '') return 'has no branch name';
  if (cells.some((cell) => /\p{Cc}/u.test(cell))) return 'holds control characters';
  return null;
}
