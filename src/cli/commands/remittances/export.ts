import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import type { BatchEntryRow } from '../../../infrastructure/repositories/batch-entries.js';
import { exportedEntry } from '../../../services/reconciliation/entry-export.js';
import { exportRemittanceBatchCsv, listRemittanceEntries } from '../../../services/reconciliation/operations.js';
import {
  csvStream,
  neutraliseCell,
  REPORT_CSV_COLUMNS,
  reportCsvRecord,
} from '../../../services/reconciliation/remittance-csv.js';
import { parseTimeRange } from '../../../services/operators/time-range.js';
import type { CliContext } from '../../context.js';
import type { CliIo } from '../../io.js';
import type { Output } from '../../output.js';
import { wholeNumber, withJson } from '../../options.js';
import { fromOption, outcomeOption, toOption } from './shared.js';

/** remittances export: entries with their outcomes, as the partner's CSV of one batch, or across batches. */
export function registerRemittancesExport(remittances: Command, ctx: CliContext) {
  withJson(
    remittances
      .command('export')
      .description('Export entries with their outcomes, as CSV or JSON: one batch (--batch) or across batches'),
  )
    .addOption(
      new Option('--format <format>', 'file format (--json is short for --format json)')
        .choices(['csv', 'json'])
        .default('csv'),
    )
    .option('--output <file>', 'write to this file instead of stdout')
    .option('--batch <batchId>', 'only this batch')
    .option('--partner <partner>', 'only this partner (name or id)')
    .addOption(outcomeOption())
    .option('--exceptions', 'only entries whose outcome is not matched')
    .option(...fromOption)
    .option(...toOption)
    .option('--limit <n>', 'at most this many entries', wholeNumber(1, 10_000_000), 1_000_000)
    .action((options: ExportOptions, command: Command) =>
      ctx.run(command, async ({ ops, io, out }) => {
        const json = options.format === 'json' || Boolean(options.json);
        // One batch as CSV is exactly the partner's file (GET /remittances/{batchId}, Accept: text/csv).
        if (options.batch && !json && !options.partner && !options.from && !options.to) {
          const outcome = options.outcome ?? (options.exceptions ? 'exceptions' : undefined);
          const csv = await exportRemittanceBatchCsv(ops, options.batch, outcome);
          return writeOut(io, out, options.output, csv, (n) => `Wrote the CSV of batch ${options.batch} (${n} bytes)`);
        }
        const rows = await listRemittanceEntries(ops, {
          batchId: options.batch,
          partner: options.partner,
          outcome: options.outcome,
          exceptionsOnly: options.exceptions,
          range: parseTimeRange(options.from, options.to),
          limit: options.limit,
        });
        const entries = `${rows.length} entr${rows.length === 1 ? 'y' : 'ies'}`;
        const output = json ? Readable.from([`${JSON.stringify(rows.map(exportedEntry), null, 2)}\n`]) : toCsv(rows);
        return writeOut(io, out, options.output, output, () => `Wrote ${entries}`, rows.length);
      }),
    );
}

interface ExportOptions {
  format: 'csv' | 'json';
  json?: boolean;
  output?: string;
  batch?: string;
  partner?: string;
  outcome?: string;
  exceptions?: boolean;
  from?: string;
  to?: string;
  limit: number;
}

/**
 * Entries across batches: the partner's columns after the batch's, through the same CSV writer, then what reversals
 * took back of the entry's donations.
 */
function toCsv(rows: BatchEntryRow[]): Readable {
  const records = rows.map((row) => {
    const e = exportedEntry(row);
    const batch = [e.batchId, e.receivedAt, e.partner, e.environment, e.fundraiserId, e.batchStatus];
    return [...batch.map(neutraliseCell), ...reportCsvRecord(row), e.reversedAud];
  });
  const header = ['batchId', 'receivedAt', 'partner', 'environment', 'fundraiserId', 'batchStatus'];
  return csvStream(
    (async function* () {
      yield records;
    })(),
    [...header, ...REPORT_CSV_COLUMNS, 'reversedAud'],
  );
}

/**
 * Streams to stdout, chunk by chunk, or to a file and then says so: on stderr for people; with --json, as the
 * result on stdout (`{"file":…,"bytes":…,"entries":…}`), since stdout must hold one JSON document.
 */
async function writeOut(
  io: CliIo,
  out: Output,
  file: string | undefined,
  output: Readable,
  done: (bytes: number) => string,
  entries?: number,
) {
  let bytes = 0;
  if (!file) {
    for await (const chunk of output) io.stdout(String(chunk));
    return;
  }
  const path = resolve(io.cwd, file);
  output.on('data', (chunk: Buffer | string) => (bytes += chunk.length));
  await pipelineAsync(output, createWriteStream(path));
  if (out.json) out.emit({ file: path, bytes, entries }, () => '');
  else io.stderr(`${done(bytes)} to ${path}\n`);
}
