import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { formatCents } from '../../domain/money.js';
import type { DB } from '../../infrastructure/db/schema.js';
import {
  exportEntryPage,
  findReportBatch,
  type EntryFilter,
  type ExportEntryRow,
  type Owner,
} from '../../infrastructure/repositories/remittance-report-pages.js';
import type { EntryRow } from '../../infrastructure/repositories/remittance-reports.js';
import type { FundsReceivedColumn } from '../../infrastructure/repositories/funds-received-column.js';
import { openReadOnlySnapshot, readReportSnapshot } from '../../infrastructure/repositories/report-snapshot.js';
import { csvText } from './csv-text.js';
import { asSeenBy, entryFilter, notFound } from './remittance-report.js';

/** The partner's CSV file of a batch (GET /remittances/{batchId} with Accept: text/csv, and the CLI's export). */
export const REPORT_CSV_COLUMNS = [
  'index',
  'bankReferenceId',
  'amount',
  'donationIds',
  'outcome',
  'detail',
  'fundsReceived',
] as const;

/** Rows per read: large enough that round trips do not dominate, small enough that memory stays flat. */
const CHUNK_ROWS = 5000;

/**
 * A cell a spreadsheet would take for a formula (=, +, -, @, or a leading tab or carriage return) gets a leading
 * apostrophe, so it is shown as text and never run (OWASP, CSV injection).
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function reportCsvRecord(entry: (EntryRow | ExportEntryRow) & Partial<FundsReceivedColumn>): string[] {
  const ids = entry.donation_ids;
  return [
    String(entry.position),
    entry.bank_reference_id,
    formatCents(Number(entry.amount_cents)),
    typeof ids === 'string' ? ids : ids.join(';'),
    entry.outcome ?? '',
    entry.outcome_detail ?? '',
    // Empty where the reader did not look (an export across batches); docs/bank-statements.md.
    entry.funds_received_at === undefined ? '' : String(entry.funds_received_at !== null),
  ].map(neutraliseCell);
}

/** RFC 4180: CRLF line ends, fields quoted when they hold a comma, a quote, a CR or an LF. */
function csvLines(records: string[][], header?: readonly string[]): string {
  return csvText(records, { record_delimiter: 'windows', ...(header ? { header: true, columns: [...header] } : {}) });
}

/**
 * CSV text from chunks of records: the header, then each chunk formatted at once (a stream of single records
 * cost more than reading the rows). The next chunk is requested before the current one is handed on, so the
 * database reads while the response is written; at most two chunks are held.
 */
export function csvStream(chunks: AsyncIterable<string[][]>, header: readonly string[]): Readable {
  async function* text() {
    yield csvLines([], header);
    const iterator = chunks[Symbol.asyncIterator]();
    let next = iterator.next();
    try {
      for (;;) {
        const current = await next;
        if (current.done) return;
        next = iterator.next();
        yield csvLines(current.value);
      }
    } finally {
      // Abandoned download: let the pending read settle, then end the reader (its snapshot, if it holds one).
      await next.catch(() => undefined);
      await iterator.return?.();
    }
  }
  return Readable.from(text(), { objectMode: false });
}

/**
 * Opens the CSV export of a batch's entries that pass `outcome` (all of them without it), streamed in chunks read
 * by keyset so memory stays flat whatever the batch's size. The batch and the first chunk are read before anything
 * is returned, so an unknown batch (or another partner's) or an unreachable database is still an ordinary error.
 */
export async function openRemittanceCsv(
  db: Kysely<DB>,
  batchId: string,
  options: { owner?: Owner; outcome?: string; chunkRows?: number },
): Promise<Readable> {
  // A partner (owner given) reads its entries as asSeenByPartner shows them; operators read the stored outcomes.
  const filter = entryFilter(options.outcome, { partnerView: options.owner !== undefined });
  const chunk = options.chunkRows ?? CHUNK_ROWS;
  const first = await readReportSnapshot(db, batchId, async (trx) => {
    const batch = await findReportBatch(trx, batchId, options.owner);
    return batch && { batch, rows: await exportEntryPage(trx, batchId, { filter, afterIndex: -1, limit: chunk }) };
  });
  if (!first) throw notFound(batchId);
  const completed = first.batch.status === 'completed' || first.batch.status === 'completed_with_exceptions';
  // A completed batch's entries never change again, so chunks read one by one agree with the first; one still
  // being reconciled is read on one snapshot held until the end (a pool connection for as long as the download).
  const chunks = completed
    ? chunksAfter(db, batchId, { filter, chunk }, first.rows)
    : chunksOnSnapshot(db, batchId, { filter, chunk });
  return csvStream(recordsOf(db, chunks, options.owner), REPORT_CSV_COLUMNS);
}

async function* recordsOf(db: Kysely<DB>, chunks: AsyncIterable<ExportEntryRow[]>, owner: Owner | undefined) {
  for await (const rows of chunks) {
    const seen = owner
      ? (await asSeenBy(db, owner, rows.map(withIdList))).map(({ joined, ...row }) => ({
          ...row,
          donation_ids: joined,
        }))
      : rows;
    yield seen.map(reportCsvRecord);
  }
}

/** The ids as a list, for the partner's view of unknown and foreign donations (only those entries need it). */
const withIdList = (row: ExportEntryRow) => ({
  ...row,
  donation_ids:
    row.outcome === 'unknown_donation' || row.outcome === 'foreign_donation' ? row.donation_ids.split(';') : [],
  joined: row.donation_ids,
});

interface Reading {
  filter: EntryFilter;
  chunk: number;
}

async function* chunksAfter(db: Kysely<DB>, batchId: string, { filter, chunk }: Reading, first: ExportEntryRow[]) {
  let rows = first;
  for (;;) {
    if (rows.length > 0) yield rows;
    if (rows.length < chunk) return;
    rows = await exportEntryPage(db, batchId, { filter, afterIndex: rows.at(-1)!.position, limit: chunk });
  }
}

async function* chunksOnSnapshot(db: Kysely<DB>, batchId: string, reading: Reading) {
  const trx = await openReadOnlySnapshot(db);
  try {
    const first = await exportEntryPage(trx, batchId, { filter: reading.filter, afterIndex: -1, limit: reading.chunk });
    yield* chunksAfter(trx, batchId, reading, first);
  } finally {
    await trx.commit().execute();
  }
}
