import { parse } from 'csv-parse/sync';
import { parseBankAmount, parseBankDate } from '../../domain/bank-line.js';
import type { ImportProblem } from '../operators/operator-errors.js';
import type { CsvLayout } from './csv-layouts.js';
import { problem, type ParsedLine, type ParsedStatement } from './statement-lines.js';

type Column = string | number;
type Row = { record: string[]; info: { lines: number } };

/**
 * Reads a CSV bank export through a layout (a preset or a mapping file). Lines are numbered as in a text editor;
 * every problem names its line and the layout's field. `account` is used when the layout has no account column.
 */
export function parseCsvStatement(content: string, layout: CsvLayout, account = ''): ParsedStatement {
  const result = (lines: ParsedLine[], problems: ImportProblem[]) => ({
    lines,
    problems,
    statementRef: null,
    skipped: 0,
  });
  const problems: ImportProblem[] = [];
  const lines: ParsedLine[] = [];
  // How rows are read: not known yet, known (from the header, or the layout's positions), or null when the header
  // lacks a column (that is all that is said of the file: no row is read).
  const state: { header?: Row; reading?: Reading | null; rows: number } = { rows: 0 };
  const start = () => {
    const position = positions(layout, state.header, problems);
    state.reading = problems.length > 0 ? null : { position, account };
  };
  // Each record becomes its line as csv-parse reads it, and csv-parse keeps none: the records of a large export,
  // each with its parse info, are never all held beside the lines made of them.
  const onRow = (row: Row) => {
    if (layout.header && !state.header) {
      state.header = row;
      start();
      return;
    }
    if (state.reading === undefined) start();
    state.rows += 1;
    const line = state.reading ? readRow(row, layout, state.reading, problems) : null;
    if (line) lines.push(line);
  };
  let failed: unknown;
  try {
    parse(content, {
      bom: true,
      delimiter: layout.delimiter ?? ',',
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: string[], context: { lines: number }) => {
        try {
          onRow({ record, info: { lines: context.lines } });
        } catch (err) {
          failed = err;
          throw err;
        }
        return null;
      },
    });
  } catch (err) {
    // A failure of reading a row here is not the file's: it is not told as unreadable CSV.
    if (failed !== undefined && err === failed) throw err;
    return result([], [problem('file', '(file)', `is not readable CSV: ${(err as Error).message}`)]);
  }
  if (state.reading === undefined) start();
  if (state.reading === null) return result([], problems);
  if (state.rows === 0) return result([], [problem('file', '(file)', 'holds no bank lines')]);
  return result(lines, problems);
}

/**
 * Each mapped field's cell index, from the header's names or the layout's positions; every column the header lacks
 * is a problem of the header's line, found before any row is read.
 */
function positions(layout: CsvLayout, header: Row | undefined, problems: ImportProblem[]) {
  const names = header?.record.map((cell) => cell.trim().toLowerCase()) ?? [];
  const index = new Map<Column, number>();
  const mapped = Object.entries(layout.columns).flatMap(([field, c]) =>
    (Array.isArray(c) ? c : [c]).map((column) => [field, column] as const),
  );
  for (const [field, column] of mapped) {
    if (column === undefined || index.has(column)) continue;
    const at = typeof column === 'number' ? column - 1 : names.indexOf(column.toLowerCase());
    if (at < 0)
      problems.push(
        problem(
          header?.info.lines ?? 1,
          field,
          `column "${column}" is not in the header (${header?.record.join(', ') ?? 'none'})`,
        ),
      );
    index.set(column, at);
  }
  return (_field: string, column: Column): number => index.get(column) ?? -1;
}

interface Reading {
  position: (field: string, column: Column) => number;
  account: string;
}

function readRow(row: Row, layout: CsvLayout, { position, account }: Reading, problems: ImportProblem[]) {
  const lineNo = row.info.lines;
  const before = problems.length;
  const cell = (field: string, column: Column | undefined) =>
    column === undefined ? '' : (row.record[position(field, column)] ?? '').trim();
  const { columns } = layout;
  const bookedOn = parseBankDate(cell('date', columns.date), layout.dateFormat);
  if (!bookedOn)
    problems.push(
      problem(lineNo, 'date', `must be a date as ${layout.dateFormat}; got "${cell('date', columns.date)}"`),
    );
  const valueText = cell('valueDate', columns.valueDate);
  const valueOn = valueText ? parseBankDate(valueText, layout.dateFormat) : null;
  if (valueText && !valueOn)
    problems.push(problem(lineNo, 'valueDate', `must be a date as ${layout.dateFormat}; got "${valueText}"`));
  const signed = signedAmount(lineNo, layout, cell, problems);
  if (problems.length > before || signed === null) return null;
  return {
    lineNo,
    account: cell('account', columns.account) || account,
    bookedOn: bookedOn!,
    valueOn,
    credit: signed > 0,
    amountCents: Math.abs(signed),
    description: columns.description
      .map((c) => cell('description', c))
      .filter(Boolean)
      .join(' '),
    reference: cell('reference', columns.reference) || null,
    bankRef: cell('bankReference', columns.bankReference) || null,
  } satisfies ParsedLine;
}

/** Money in is positive: a signed amount column, or a credit or a debit column (exactly one of them filled). */
function signedAmount(
  lineNo: number,
  layout: CsvLayout,
  cell: (field: string, column: Column | undefined) => string,
  problems: ImportProblem[],
): number | null {
  const { columns } = layout;
  const amount = (field: string, column: Column | undefined) => {
    const text = cell(field, column);
    const cents = text === '' ? null : parseBankAmount(text);
    if (text !== '' && cents === null)
      problems.push(problem(lineNo, field, `must be an amount such as 1,234.56 or -12.30; got "${text}"`));
    return { text, cents };
  };
  if (columns.amount !== undefined) {
    const { text, cents } = amount('amount', columns.amount);
    if (text === '' || cents === 0)
      problems.push(problem(lineNo, 'amount', `must be a non-zero amount; got "${text}"`));
    return cents || null;
  }
  const before = problems.length;
  const credit = amount('credit', columns.credit).cents ?? 0;
  const debit = amount('debit', columns.debit).cents ?? 0;
  if (problems.length > before) return null;
  if ((credit === 0) === (debit === 0)) {
    problems.push(problem(lineNo, 'credit', 'or debit must hold a non-zero amount, and only one of them'));
    return null;
  }
  return credit !== 0 ? Math.abs(credit) : -Math.abs(debit);
}
