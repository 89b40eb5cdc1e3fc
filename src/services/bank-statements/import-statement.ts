import { extname } from 'node:path';
import type { BankMatchingSettings } from '../../config/index.js';
import { tokensOf } from '../../domain/bank-line.js';
import {
  findStatementByHash,
  insertNewLines,
  insertStatement,
  LINES_PER_INSERT,
  lockBankMatching,
  type LineToStore,
} from '../../infrastructure/repositories/bank-statements.js';
import { confirmGrantPayments, type GrantPayments } from '../grants/bank-confirmation.js';
import { AuditActions, audit } from '../operators/audit.js';
import { inTransaction, type OperatorContext } from '../operators/context.js';
import { ImportRejectedError, InvalidInputError } from '../operators/operator-errors.js';
import { layoutFromMapping, PRESETS, type PresetName } from './csv-layouts.js';
import { importScope, runMatching, type MatchingRun } from './matching.js';
import { parseCamt053 } from './parse-camt053.js';
import { parseCsvStatement } from './parse-csv.js';
import { dedupeKeyer, sha256, type ParsedLine, type ParsedStatement } from './statement-lines.js';

export interface StatementImport {
  fileName: string;
  content: string;
  /** For a CSV file: a preset, or a mapping file's name and content. */
  preset?: PresetName;
  mapping?: { fileName: string; content: string };
  /** The account of a CSV layout without an account column. */
  account?: string;
}

export interface ImportResult extends Partial<MatchingRun> {
  file: string;
  format: 'camt053' | 'csv';
  layout: string;
  /** The same file was imported before: nothing was added. */
  alreadyImported: { at: Date; by: string } | null;
  statementId: string | null;
  linesRead: number;
  linesAdded: number;
  /** Lines an earlier, overlapping statement already holds. */
  duplicates: number;
  /** camt.053 entries not booked yet (pending), left out. */
  skipped: number;
  /** Grant rounds and grants the new lines confirmed paid, and grants they showed returned. */
  grantPayments?: GrantPayments;
}

/**
 * Imports a bank statement (camt.053, or CSV through a preset or a mapping) and matches it, all in one transaction.
 * A file with any bad line is refused whole, every problem named by line and field; the same file again adds
 * nothing; lines an overlapping statement already brought are not added again (docs/bank-statements.md).
 */
export async function importStatement(
  ctx: OperatorContext,
  settings: BankMatchingSettings,
  request: StatementImport,
): Promise<ImportResult> {
  const { format, layout, parsed } = await parse(request);
  // Pending entries are left out, so a file of nothing else brings no bank line: refused as a header-only CSV is,
  // rather than stored, audited and matched as an empty statement.
  if (parsed.problems.length === 0 && parsed.lines.length === 0)
    parsed.problems.push({ row: 'file', field: '(file)', message: 'holds no bank lines' });
  if (parsed.problems.length > 0) throw new ImportRejectedError(request.fileName, parsed.problems);
  const hash = sha256(request.content);
  const linesRead = parsed.lines.length;
  const result = { file: request.fileName, format, layout, linesRead, skipped: parsed.skipped };
  return inTransaction(ctx, async (tx) => {
    await lockBankMatching(tx.db);
    const earlier = await findStatementByHash(tx.db, hash);
    if (earlier)
      return {
        ...result,
        alreadyImported: { at: new Date(earlier.imported_at), by: earlier.imported_by },
        statementId: earlier.id,
        linesAdded: 0,
        duplicates: linesRead,
      };
    const at = ctx.now();
    const source = { fileName: request.fileName, sha256: hash, format, layout, statementRef: parsed.statementRef };
    const statementId = await insertStatement(tx.db, source, {
      read: linesRead,
      importedBy: ctx.operator,
      at,
    });
    const linesAdded = await insertNewLines(tx.db, statementId, chunksToStore(parsed.lines));
    const run = await runMatching(tx.db, settings, at, await importScope(tx.db, statementId, settings));
    const grantPayments = await confirmGrantPayments(tx.db, statementId, {
      timeZone: settings.timeZone,
      by: ctx.operator,
      at,
    });
    const imported = {
      ...result,
      alreadyImported: null,
      statementId,
      linesAdded,
      duplicates: linesRead - linesAdded,
      ...run,
      grantPayments,
    };
    await audit(tx, AuditActions.bankImport, statementId, { ...imported, alreadyImported: undefined });
    return imported;
  });
}

/**
 * The lines as stored, a chunk at a time in the file's order, each chunk made while the one before is being stored
 * and its lines taken out of `lines` then: a large statement's lines are not held twice (as read and as stored), and
 * those stored are let go before matching.
 */
function* chunksToStore(lines: ParsedLine[]): Generator<LineToStore[]> {
  const keyOf = dedupeKeyer();
  while (lines.length > 0) yield lines.splice(0, LINES_PER_INSERT).map((l) => toStore(l, keyOf(l)));
}

/**
 * Field by field, not `{ ...line, tokens, dedupeKey }`: such copies of the long-lived lines read were seen to
 * survive into V8's old generation (node --trace-gc-nvp), some 40 MB of garbage there for 100,000 lines.
 */
const toStore = (l: ParsedLine, dedupeKey: string): LineToStore => ({
  lineNo: l.lineNo,
  account: l.account,
  bookedOn: l.bookedOn,
  valueOn: l.valueOn,
  credit: l.credit,
  amountCents: l.amountCents,
  description: l.description,
  reference: l.reference,
  bankRef: l.bankRef,
  tokens: tokensOf(l.reference, l.description),
  dedupeKey,
});

async function parse(
  request: StatementImport,
): Promise<{ format: 'camt053' | 'csv'; layout: string; parsed: ParsedStatement }> {
  const extension = extname(request.fileName).toLowerCase();
  if (!request.preset && !request.mapping) {
    if (extension === '.xml' || extension === '.053' || request.content.trimStart().startsWith('<'))
      return { format: 'camt053', layout: 'camt.053', parsed: await parseCamt053(request.content) };
    throw new InvalidInputError(
      `${request.fileName} is not XML: a CSV statement needs --preset (${Object.keys(PRESETS).join(', ')}) or --mapping <file.json>.`,
    );
  }
  const layout = request.mapping
    ? layoutFromMapping(request.mapping.fileName, request.mapping.content)
    : PRESETS[request.preset!];
  return { format: 'csv', layout: layout.name, parsed: parseCsvStatement(request.content, layout, request.account) };
}
