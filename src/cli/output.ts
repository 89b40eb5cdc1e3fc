import Table from 'cli-table3';
import { formatCents } from '../domain/money.js';
import { ImportRejectedError, OperatorError } from '../services/operators/errors.js';
import type { CliIo } from './io.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

/**
 * What a command prints: a table or a list of fields for people (the default), or JSON for scripts (--json).
 * In JSON mode stdout holds exactly one JSON document; notes for people are left out and errors go to stderr
 * as JSON too.
 */
export class Output {
  constructor(
    private readonly io: Pick<CliIo, 'stdout' | 'stderr'>,
    readonly json: boolean,
  ) {}

  /** `data` for scripts; `human()` (only computed when needed) for people. */
  emit(data: unknown, human: () => string): void {
    this.io.stdout(this.json ? `${JSON.stringify(data, null, 2)}\n` : ensureNewline(human()));
  }

  /** A remark for people only (e.g. "the secret is shown once"); silent in JSON mode. */
  note(text: string): void {
    if (!this.json) this.io.stdout(ensureNewline(text));
  }

  /** A warning, on stderr whatever the mode. */
  warn(text: string): void {
    this.io.stderr(ensureNewline(`Warning: ${text}`));
  }

  error(err: unknown, options: { debug?: boolean } = {}): void {
    const expected = err instanceof OperatorError;
    const message = expected ? err.message : `Unexpected failure: ${err instanceof Error ? err.message : String(err)}`;
    const problems = err instanceof ImportRejectedError ? err.problems : undefined;
    if (this.json) {
      this.io.stderr(`${JSON.stringify({ error: { message, ...(problems ? { problems } : {}) } }, null, 2)}\n`);
      return;
    }
    this.io.stderr(`Error: ${message}\n`);
    if (problems) {
      const shown = problems.slice(0, FIRST_PROBLEMS);
      this.io.stderr(
        table(shown, [
          { header: 'Where', value: (p) => p.row },
          { header: 'Member', value: (p) => p.memberNumber },
          { header: 'Field', value: (p) => p.field },
          { header: 'Problem', value: (p) => p.message },
        ]) + '\n',
      );
      if (problems.length > shown.length)
        this.io.stderr(`… and ${problems.length - shown.length} more; --json lists every one.\n`);
    }
    if (options.debug && !expected && err instanceof Error && err.stack) this.io.stderr(`${err.stack}\n`);
  }
}

/** A rejected import lists this many problems for people (all of them with --json): the first ones show what to fix. */
const FIRST_PROBLEMS = 20;

/** No colours (tables are read in terminals, logs and tickets alike) and no rule between rows. */
const STYLE = {
  style: { head: [], border: [] },
  chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
};

function table<T>(rows: readonly T[], columns: Column<T>[]): string {
  const t = new Table({ head: columns.map((c) => c.header), ...STYLE });
  for (const row of rows) t.push(columns.map((c) => cell(c.value(row))));
  return t.toString();
}

/** One record as label/value lines. */
export function fields(pairs: [label: string, value: unknown][]): string {
  const t = new Table({ ...STYLE });
  for (const [label, value] of pairs) t.push({ [label]: cell(value) });
  return t.toString();
}

/** A table, or `empty` when there are no rows. */
export const tableOr = <T>(rows: readonly T[], columns: Column<T>[], empty: string) =>
  rows.length === 0 ? empty : table(rows, columns);

function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (value instanceof Date) return formatTime(value);
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(cell).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return `${value as string | number | boolean | bigint}`;
}

/** ISO 8601 in UTC to the second: what the API and the database logs use. */
export const formatTime = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Cents as an AUD amount with two decimals; "-" when there is none. */
export const formatAud = (cents: number | null): string => (cents === null ? '-' : formatCents(cents));

const ensureNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
