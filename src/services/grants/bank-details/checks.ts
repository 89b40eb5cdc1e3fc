import type { Kysely } from 'kysely';
import { normaliseAccountName, normaliseAccountNumber } from '../../../domain/bank-account.js';
import { bsbFormatProblem, normaliseBsb } from '../../../domain/bsb.js';
import type { DB } from '../../../infrastructure/db/schema.js';
import { branchesOf, directoryIsEmpty, type BranchRow } from '../../../infrastructure/repositories/bsb-directory.js';
import { InvalidInputError } from '../../operators/operator-errors.js';

/** Bank details as an operator or a file gives them. */
export interface DetailsInput {
  bsb: string;
  accountNumber: string;
  accountName: string;
}

/** Details that passed every check, normalised, with the branch the directory names (null without a directory). */
export interface CheckedDetails {
  bsb: string;
  accountNumber: string;
  accountName: string;
  branch: BranchRow | null;
}

export interface FieldProblem {
  field: 'bsb' | 'accountNumber' | 'accountName';
  message: string;
}

/** The BSB directory as far as a batch of checks needs it: whether one was imported, and the branches asked for. */
export interface DirectoryView {
  empty: boolean;
  branches: Map<string, BranchRow>;
}

export async function directoryView(db: Kysely<DB>, bsbs: readonly string[]): Promise<DirectoryView> {
  const normalised = bsbs.map(normaliseBsb).filter((b): b is string => b !== null);
  const [empty, branches] = await Promise.all([directoryIsEmpty(db), branchesOf(db, normalised)]);
  return { empty, branches };
}

/**
 * Checks details against the ABA file's limits and, once a directory was imported, the directory: every problem
 * names its field. The format is always checked; the directory only when it has rows.
 */
export function checkDetails(
  input: DetailsInput,
  directory: DirectoryView,
): { details: CheckedDetails; problems: [] } | { details: null; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const bsb = normaliseBsb(input.bsb);
  const branch = bsb ? (directory.branches.get(bsb) ?? null) : null;
  if (!bsb) problems.push({ field: 'bsb', message: bsbFormatProblem(input.bsb)! });
  else if (!directory.empty && !branch)
    problems.push({
      field: 'bsb',
      message: `BSB ${bsb} is not in the BSB directory (imported with "grants bsb-import"); check it with the club`,
    });
  const accountNumber = normaliseAccountNumber(input.accountNumber);
  if (!accountNumber)
    problems.push({
      field: 'accountNumber',
      message: 'the account number must be 5 to 9 digits (spaces and dashes are ignored)',
    });
  const accountName = normaliseAccountName(input.accountName);
  if (!accountName)
    problems.push({
      field: 'accountName',
      message:
        'the account name must be 1 to 32 printable characters (letters, digits, spaces and punctuation, no accents)',
    });
  if (!bsb || !accountNumber || !accountName || problems.length > 0) return { details: null, problems };
  return { details: { bsb, accountNumber, accountName, branch }, problems: [] };
}

/** The details checked against the database's directory, or a refusal naming every problem. */
export async function requireValidDetails(db: Kysely<DB>, input: DetailsInput): Promise<CheckedDetails> {
  const checked = checkDetails(input, await directoryView(db, [input.bsb]));
  if (checked.details) return checked.details;
  throw new InvalidInputError(
    `The bank details were not entered: ${checked.problems.map((p) => p.message).join('; ')}.`,
  );
}

/** "CBA Parramatta, Parramatta NSW": a branch as people read it (its bank's code, its name and where it is). */
export const branchLabel = (branch: BranchRow | null | undefined): string | null =>
  branch
    ? `${branch.bankCode} ${branch.name}${branch.suburb ? `, ${[branch.suburb, branch.state].filter(Boolean).join(' ')}` : ''}`
    : null;
