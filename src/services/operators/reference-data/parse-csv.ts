import { parse } from 'csv-parse/sync';
import type { AccountInput } from '../../../infrastructure/repositories/accounts.js';
import { CSV_COLUMNS, CsvRow, schemaErrors, withoutFailingFields } from './row-schemas.js';
import {
  ProblemList,
  toAbn,
  toClubColumns,
  toProduct,
  type ParsedAccount,
  type ParsedFile,
  type RowRef,
} from './normalise.js';

/** Header cells match a column whatever their case, spaces, dashes or underscores ("Member Number", "member_number"). */
const headerKey = (cell: string) => cell.toLowerCase().replace(/[\s_-]+/g, '');
const COLUMN_BY_KEY = new Map(CSV_COLUMNS.map((column) => [headerKey(column), column]));

/** Account columns repeated on every line of an account; they must agree. */
const ACCOUNT_COLUMNS = ['crmId', 'name', 'abn', 'bsb', 'accountNumber', 'accountName', 'gstRegistered'] as const;

/**
 * Reads a CSV import file (a CRM export): one line per account and channel product, account columns repeated
 * (see CsvRow). Lines are numbered as in a text editor, the header being line 1.
 */
export function parseCsvAccounts(content: string): ParsedFile {
  const problems = new ProblemList();
  const lines = readLines(content, problems);
  if (!lines) return { accounts: [], problems: problems.items };
  const [header, ...dataLines] = lines;
  if (!header) {
    problems.add({ row: 'file' }, '(file)', 'is empty');
    return { accounts: [], problems: problems.items };
  }
  const columns = headerColumns(header.record, problems);
  if (problems.size > 0) return { accounts: [], problems: problems.items };
  const rows = rowsByColumn(dataLines, columns, problems);
  return { accounts: accountsOf(rows, problems), problems: problems.items };
}

type CsvLine = { record: string[]; info: { lines: number } };
type CsvRecord = { record: Record<string, string>; info: { lines: number } };

/** The file's lines with their line numbers, or null (and a problem) when it is not readable CSV. */
function readLines(content: string, problems: ProblemList): CsvLine[] | null {
  let lines: CsvLine[];
  try {
    // Cells are mapped to columns here rather than by csv-parse, so that a line with a missing or extra cell is
    // reported as that line's problem instead of failing the whole file.
    lines = parse(content, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as typeof lines;
  } catch (err) {
    problems.add({ row: 'file' }, '(file)', `is not readable CSV: ${(err as Error).message}`);
    return null;
  }
  return lines;
}

/** The header's cells as column keys; an unknown or missing column is a problem. */
function headerColumns(header: string[], problems: ProblemList): string[] {
  const columns = header.map((cell) => COLUMN_BY_KEY.get(headerKey(cell)) ?? cell);
  for (const column of columns.filter((c) => !COLUMN_BY_KEY.has(headerKey(c)))) {
    problems.add({ row: 'line 1' }, column, `is not a known column; expected ${CSV_COLUMNS.join(', ')}`);
  }
  for (const required of ['memberNumber', 'name']) {
    if (!columns.includes(required)) problems.add({ row: 'line 1' }, required, 'column is missing');
  }
  return columns;
}

/** Each data line as a record by column; a line with a missing or extra cell is a problem. */
function rowsByColumn(dataLines: CsvLine[], columns: string[], problems: ProblemList): CsvRecord[] {
  const rows: CsvRecord[] = [];
  for (const { record, info } of dataLines) {
    if (record.length !== columns.length) {
      problems.add(
        { row: `line ${info.lines}`, memberNumber: record[columns.indexOf('memberNumber')] },
        '(line)',
        `has ${record.length} cells; the header has ${columns.length}`,
      );
      continue;
    }
    rows.push({ record: Object.fromEntries(columns.map((column, i) => [column, record[i]!])), info });
  }

  return rows;
}

/** One account per member number, with a product per row; cells that differ between its rows are problems. */
function accountsOf(rows: CsvRecord[], problems: ProblemList): ParsedAccount[] {
  const byMember = new Map<string, { account: ParsedAccount; firstLine: string; cells: Partial<CsvRow> }>();
  for (const { record, info } of rows) {
    const cells = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== '')) as Partial<CsvRow>;
    const ref: RowRef = { row: `line ${info.lines}`, memberNumber: cells.memberNumber };
    const errors = schemaErrors(CsvRow, cells);
    for (const error of errors) problems.add(ref, error.field, error.message);
    // Keep checking the cells that did pass, so the report is complete; the file is rejected anyway.
    const row = withoutFailingFields(cells, errors) as CsvRow;
    const failed = new Set(errors.map((e) => e.field));
    if (!row.memberNumber || !row.name) continue;

    let entry = byMember.get(row.memberNumber);
    if (!entry) {
      const input: AccountInput = {
        memberNumber: row.memberNumber,
        crmId: row.crmId ?? null,
        name: row.name,
        abn: toAbn(row.abn, ref, problems),
        products: [],
      };
      const club = toClubColumns(row, ref, problems);
      entry = { account: { row: ref.row, input, channelRefs: [], club }, firstLine: ref.row, cells: row };
      byMember.set(row.memberNumber, entry);
    } else {
      for (const column of ACCOUNT_COLUMNS.filter((c) => !failed.has(c))) {
        if ((row[column] ?? '') !== (entry.cells[column] ?? '')) {
          problems.add(
            ref,
            column,
            `${JSON.stringify(row[column] ?? '')} differs from ${JSON.stringify(entry.cells[column] ?? '')} on ${entry.firstLine} for the same member number`,
          );
        }
      }
    }
    addProduct(row, ref, entry.account, problems);
  }
  return [...byMember.values()].map((e) => e.account);
}

function addProduct(row: CsvRow, ref: RowRef, account: ParsedAccount, problems: ProblemList) {
  const { channel, status } = row;
  const productCells = (
    [
      'status',
      'description',
      'logo',
      'coverImage',
      'donationAmounts',
      'story',
      'campaigns',
      'productEnrollmentId',
      'enrollmentStatus',
    ] as const
  ).filter((c) => row[c] !== undefined);
  if (!channel) {
    // A line without a channel carries the account only; product cells on it would be lost.
    if (productCells.length > 0)
      problems.add(ref, 'channel', `is required when product columns (${productCells.join(', ')}) are filled`);
    return;
  }
  if (!status) {
    problems.add(ref, 'status', 'is required when channel is filled');
    return;
  }
  if (account.input.products.some((p) => p.channel === channel)) {
    const first = account.channelRefs[account.input.products.findIndex((p) => p.channel === channel)]?.row;
    problems.add(ref, 'channel', `${JSON.stringify(channel)} is listed twice for this member (also on ${first})`);
    return;
  }
  account.input.products.push(
    toProduct(
      {
        channel,
        status,
        description: row.description,
        logo: row.logo,
        coverImage: row.coverImage,
        donationAmounts: row.donationAmounts === undefined ? [] : row.donationAmounts.split(';').map((s) => s.trim()),
        story: row.story,
        campaigns: parseCampaigns(row.campaigns, ref, problems),
        productEnrollmentId: row.productEnrollmentId,
        enrollmentStatus: row.enrollmentStatus,
      },
      ref,
      problems,
    ),
  );
  account.channelRefs.push({ row: ref.row, field: 'channel' });
}

function parseCampaigns(
  cell: string | undefined,
  ref: RowRef,
  problems: ProblemList,
): Record<string, unknown> | undefined {
  if (cell === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(cell);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  problems.add(
    ref,
    'campaigns',
    `must be a JSON object such as {} or {"winter": {"goal": 5000}}; got ${JSON.stringify(cell)}`,
  );
  return undefined;
}
