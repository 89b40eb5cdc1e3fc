/**
 * Errors an operator can act on. The CLI prints their message (and, for an import, the list of problems) and
 * exits non-zero; anything else is an unexpected failure.
 */
export class OperatorError extends Error {}

export class NotFoundError extends OperatorError {}

/** The change conflicts with the current state (already suspended, already rotated, duplicate name...). */
export class ConflictError extends OperatorError {}

export class InvalidInputError extends OperatorError {}

/** One bad value in an import file: where it is, which field, and what is wrong with it. */
export interface ImportProblem {
  /** "line 3" for CSV (the header is line 1), "record 2" for JSON (1-based), or "file". */
  row: string;
  /** The account's member number when the row names one: support staff search by it. */
  memberNumber?: string;
  field: string;
  message: string;
}

export class ImportRejectedError extends OperatorError {
  constructor(
    readonly file: string,
    readonly problems: ImportProblem[],
  ) {
    super(
      `${file} was rejected: ${problems.length} problem${problems.length === 1 ? '' : 's'} found. Nothing was imported.`,
    );
  }
}
