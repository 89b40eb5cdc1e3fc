import Table from 'cli-table3';
import { formatCents } from '../domain/money.js';
import { ImportRejectedError, OperatorError } from '../services/operators/operator-errors.js';
import type { CliIo } from './io.js';

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

/**
 * What a command prints: a table or a list of fields for people (the default), or JSON for scripts (--json).
 * In JSON mode the CLI writes nothing but JSON, so a script can parse each stream whole: stdout holds the result
 * alone; stderr is empty, or one document that ends the run (see `finish` and `error`). Notes for people are left
 * out; warnings and the database opened go in that document instead of lines of their own.
 */
export class Output {
  private readonly warnings: string[] = [];
  private database?: string;

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

  /** A warning: a line on stderr for people; in JSON mode, part of the document that ends the run. */
  warn(text: string): void {
    if (this.json) this.warnings.push(text);
    else this.io.stderr(ensureNewline(`Warning: ${text}`));
  }

  /**
   * Which database the run opened: which one a change went to must never be a guess. A line on stderr for people;
   * in JSON mode it is named in the document that ends the run, if there is one.
   */
  opened(location: string): void {
    this.database = location;
    if (!this.json) this.io.stderr(`Database: ${location}\n`);
  }

  /** Ends a run that succeeded: in JSON mode, its warnings (if any) as one document on stderr. */
  finish(): void {
    if (this.json && this.warnings.length > 0) this.io.stderr(this.document({}));
  }

  /** Ends a run that failed; in JSON mode with one document on stderr: `{"error":{"message":…,"problems":[…]},…}`. */
  error(err: unknown, options: { debug?: boolean } = {}): void {
    const expected = err instanceof OperatorError;
    const message = expected ? err.message : `Unexpected failure: ${err instanceof Error ? err.message : String(err)}`;
    const problems = err instanceof ImportRejectedError ? err.problems : undefined;
    const stack = options.debug && !expected && err instanceof Error ? err.stack : undefined;
    if (this.json) {
      this.io.stderr(
        this.document({ error: { message, ...(problems ? { problems } : {}), ...(stack ? { stack } : {}) } }),
      );
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
    if (stack) this.io.stderr(`${stack}\n`);
  }

  private document(content: { error?: object }): string {
    const warnings = this.warnings.length > 0 ? { warnings: this.warnings } : {};
    const database = this.database ? { database: this.database } : {};
    return `${JSON.stringify({ ...content, ...warnings, ...database }, null, 2)}\n`;
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

/** A page's table, then how to ask for the next page when there is one (docs/decisions/0074-operators-listings-by-key.md). */
export const pageOr = <T>(page: { items: readonly T[]; next: string | null }, columns: Column<T>[], empty: string) =>
  page.next === null
    ? tableOr(page.items, columns, empty)
    : `${table(page.items, columns)}\nMore: run again with --after ${page.next}`;

/** A full page's table, then how to ask for the page after its last row's id (`last`), when there may be one. */
export const moreAfter = (text: string, last: number | string | null) =>
  last === null ? text : `${text}\nMore: run again with --after ${last}`;

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
