import { isCalendarDate } from '../../domain/calendar-date.js';
import { parseDecimalToCents } from '../../domain/money.js';
import type { ImportProblem } from '../operators/operator-errors.js';
import { problem, type ParsedLine, type ParsedStatement } from './statement-lines.js';

/**
 * Reads an ISO 20022 camt.053 bank-to-customer statement (any version: namespace prefixes are dropped) with
 * fast-xml-parser. One line per booked entry (Ntry with status BOOK); the reference is the first end-to-end id, else
 * the first structured creditor reference, else the first unstructured remittance text; the description joins the
 * entry's additional information, the payer's name and the remittance texts (docs/bank-statements.md).
 */
type Node = Record<string, unknown>;

const LISTS = new Set(['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'Othr']);
/**
 * fast-xml-parser is loaded on the first statement, not at start: a statement is imported a few times a month, and
 * the parser held ~1.4 MB of heap in every process from start (docs/decisions/0091-idle-memory-floor-of-the-embedded-service.md).
 */
let xml:
  | Promise<{
      validate: (content: string) => true | { err: { line: number; msg: string } };
      parse: (content: string) => unknown;
    }>
  | undefined;
const loadXml = () =>
  (xml ??= import('fast-xml-parser').then(({ XMLParser, XMLValidator }) => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      removeNSPrefix: true,
      parseTagValue: false,
      isArray: (name) => LISTS.has(name),
    });
    return {
      validate: (content: string) => XMLValidator.validate(content),
      parse: (content: string) => parser.parse(content) as unknown,
    };
  }));

export async function parseCamt053(content: string): Promise<ParsedStatement> {
  const empty = (problems: ImportProblem[]) => ({ lines: [], problems, statementRef: null, skipped: 0 });
  // A DTD could expand entities without bound; statements never carry one.
  if (/<!DOCTYPE/i.test(content)) return empty([problem('file', '(file)', 'holds a DOCTYPE, which is refused')]);
  const { validate, parse } = await loadXml();
  const valid = validate(content);
  if (valid !== true) return empty([problem(valid.err.line, '(xml)', `is not well-formed XML: ${valid.err.msg}`)]);
  const document = (parse(content) as Node).Document as Node | undefined;
  const statements = (document?.BkToCstmrStmt as Node | undefined)?.Stmt as Node[] | undefined;
  if (!statements)
    return empty([problem('file', 'Document', 'is not a camt.053 statement (no Document/BkToCstmrStmt/Stmt)')]);
  const entryLines = tagLines(content, 'Ntry');
  const problems: ImportProblem[] = [];
  const lines: ParsedLine[] = [];
  let skipped = 0;
  let n = 0;
  for (const statement of statements) {
    const account = accountOf(statement);
    for (const entry of (statement.Ntry as Node[] | undefined) ?? []) {
      const lineNo = entryLines[n++] ?? 0;
      if (!isBooked(entry)) {
        skipped += 1;
        continue;
      }
      const line = readEntry(entry, { lineNo, account }, problems);
      if (line) lines.push(line);
    }
  }
  const statementRef = statements.map((s) => text(s.Id)).find(Boolean) ?? null;
  return { lines, problems, statementRef, skipped };
}

/** The line number of each opening `<tag>` (with any prefix), in document order: entries never nest. */
function tagLines(content: string, tag: string): number[] {
  const lines: number[] = [];
  const pattern = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${tag}[\\s>/]`, 'g');
  let line = 1;
  let from = 0;
  for (let match = pattern.exec(content); match; match = pattern.exec(content)) {
    for (let i = from; i < match.index; i += 1) if (content.charCodeAt(i) === 10) line += 1;
    from = match.index;
    lines.push(line);
  }
  return lines;
}

/** Text of an element (or of its `#text` when it has attributes); '' when absent. */
function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (value && typeof value === 'object' && '#text' in value) return String((value as Node)['#text']).trim();
  return '';
}

const child = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Node)[key] : undefined), node);

function accountOf(statement: Node): string {
  const id = child(statement, 'Acct', 'Id');
  return text(child(id, 'IBAN')) || text(child((child(id, 'Othr') as Node[] | undefined)?.[0], 'Id'));
}

/** Sts is a code (versions up to 7) or holds one in Cd (8 and later); only booked entries are money. */
function isBooked(entry: Node): boolean {
  const status = text(entry.Sts) || text(child(entry, 'Sts', 'Cd'));
  return status === '' || status === 'BOOK';
}

/** A date element's Dt, or the date part of its DtTm as written. */
function dateOf(node: unknown): string {
  return text(child(node, 'Dt')) || text(child(node, 'DtTm')).slice(0, 10);
}

function readEntry(entry: Node, at: { lineNo: number; account: string }, problems: ImportProblem[]) {
  const { lineNo } = at;
  const before = problems.length;
  const amountCents = amountOf(text(entry.Amt));
  if (amountCents === null || amountCents <= 0)
    problems.push(
      problem(lineNo, 'Ntry/Amt', `must be a positive amount with at most two decimals; got "${text(entry.Amt)}"`),
    );
  const currency = text(child(entry, 'Amt', '@Ccy'));
  if (currency !== 'AUD') problems.push(problem(lineNo, 'Ntry/Amt/@Ccy', `must be AUD; got "${currency}"`));
  const indicator = text(entry.CdtDbtInd);
  if (indicator !== 'CRDT' && indicator !== 'DBIT')
    problems.push(problem(lineNo, 'Ntry/CdtDbtInd', `must be CRDT or DBIT; got "${indicator}"`));
  const bookedOn = dateOf(entry.BookgDt);
  if (!isCalendarDate(bookedOn))
    problems.push(problem(lineNo, 'Ntry/BookgDt', `must be a date (Dt or DtTm); got "${bookedOn}"`));
  const valueOn = dateOf(entry.ValDt);
  if (valueOn && !isCalendarDate(valueOn))
    problems.push(problem(lineNo, 'Ntry/ValDt', `must be a date (Dt or DtTm); got "${valueOn}"`));
  if (problems.length > before) return null;
  const { reference, description } = remittanceOf(entry);
  return {
    lineNo,
    account: at.account,
    bookedOn,
    valueOn: valueOn || null,
    credit: indicator === 'CRDT',
    amountCents: amountCents!,
    description,
    reference,
    bankRef: text(entry.AcctSvcrRef) || null,
  } satisfies ParsedLine;
}

/** Amounts may carry up to five decimals in the schema; any beyond the cents must be zeros. */
function amountOf(value: string): number | null {
  const match = /^(\d+)(?:\.(\d{1,2})(0*))?$/.exec(value);
  return match ? parseDecimalToCents(`${match[1]}${match[2] ? `.${match[2]}` : ''}`) : null;
}

function remittanceOf(entry: Node) {
  const details = ((entry.NtryDtls as Node[] | undefined) ?? []).flatMap((d) => (d.TxDtls as Node[] | undefined) ?? []);
  const endToEnd = details.map((d) => text(child(d, 'Refs', 'EndToEndId'))).filter((id) => id && id !== 'NOTPROVIDED');
  const structured = details.flatMap((d) =>
    ((child(d, 'RmtInf', 'Strd') as Node[] | undefined) ?? []).map((s) => text(child(s, 'CdtrRefInf', 'Ref'))),
  );
  const unstructured = details.flatMap((d) => ((child(d, 'RmtInf', 'Ustrd') as unknown[] | undefined) ?? []).map(text));
  const payers = details.map(
    (d) => text(child(d, 'RltdPties', 'Dbtr', 'Nm')) || text(child(d, 'RltdPties', 'Dbtr', 'Pty', 'Nm')),
  );
  const references = [...endToEnd, ...structured.filter(Boolean), ...unstructured.filter(Boolean)];
  const reference = references[0] ?? null;
  // Every other reference stays in the description: a batch booking carries one per transaction it pays.
  const others = [...endToEnd, ...structured].filter((r) => r && r !== reference);
  const parts = [
    text(entry.AddtlNtryInf),
    ...payers,
    ...unstructured,
    ...others,
    ...details.map((d) => text(d.AddtlTxInf)),
  ];
  return { reference, description: parts.filter(Boolean).join(' ') };
}
