import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { stringify } from 'csv-stringify/sync';
import { BATCH_STATUSES, OUTCOMES } from '../../domain/reconciliation.js';
import type { BatchEntryRow } from '../../infrastructure/repositories/remittance-reports.js';
import {
  listRemittanceBatches,
  listRemittanceEntries,
  queueSummary,
  remittanceBatchDetail,
  retryRemittanceBatch,
  type BatchSummary,
} from '../../services/reconciliation/operations.js';
import type { EntryReport } from '../../services/reconciliation/remittance-report.js';
import { parseTimeRange } from '../../services/operators/time-range.js';
import type { CliContext } from '../context.js';
import { wholeNumber, withJson, withOperator } from '../options.js';
import { fields, formatCents, tableOr, type Column } from '../output.js';

const statusOption = () => new Option('--status <status>', 'only batches with this status').choices(BATCH_STATUSES);
const outcomeOption = () => new Option('--outcome <outcome>', 'only entries with this outcome').choices(OUTCOMES);
const fromOption = ['--from <date>', 'received on or after this date (YYYY-MM-DD, UTC) or ISO timestamp'] as const;
const toOption = ['--to <date>', 'received on or before this date (whole day, UTC), or before this ISO timestamp'] as const;

/** remittances list | show | exceptions | export | retry | queue: reconciliation, for operators. */
export function registerRemittances(program: Command, ctx: CliContext) {
  const remittances = program.command('remittances').description('Remittance batches and their reconciliation: status, exceptions, exports, retries');

  withJson(
    remittances
      .command('list')
      .description('List batches, newest first, with their status and counts')
      .option('--partner <partner>', 'only this partner (name or id)')
      .addOption(statusOption())
      .option(...fromOption)
      .option(...toOption)
      .option('--dead-lettered', 'only batches whose reconciliation ran out of retries (see "remittances retry")')
      .option('--limit <n>', 'at most this many', wholeNumber(1, 10_000), 100),
  ).action((options: { partner?: string; status?: string; from?: string; to?: string; deadLettered?: boolean; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listRemittanceBatches(ops, { ...options, range: parseTimeRange(options.from, options.to) });
      out.emit(rows.map(batchJson), () => tableOr(rows, batchColumns, 'No remittance batches match.'));
    }),
  );

  withJson(
    remittances
      .command('show')
      .description('Show one batch: status, counts, attempts, and the outcome of each entry')
      .argument('<batchId>', 'the batchId returned by POST /remittances')
      .option('--exceptions', 'list only entries whose outcome is not matched')
      .option('--limit <n>', 'list at most this many entries (JSON output lists them all)', wholeNumber(1, 1_000_000), 200),
  ).action((batchId: string, options: { exceptions?: boolean; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const detail = await remittanceBatchDetail(ops, batchId, { exceptionsOnly: options.exceptions });
      const entries = detail.report.entries;
      out.emit({ ...batchJson(detail.batch), counts: detail.report.counts, jobs: detail.jobs, entries }, () =>
        [
          batchFields(detail.batch, detail.jobs),
          tableOr(entries.slice(0, options.limit), entryColumns, options.exceptions ? 'No exceptions.' : 'No entries.'),
          ...(entries.length > options.limit ? [`(first ${options.limit} of ${entries.length} entries listed; raise --limit, or use "remittances export")`] : []),
        ].join('\n'),
      );
    }),
  );

  withJson(
    remittances
      .command('exceptions')
      .description('List entries whose outcome is not matched, across batches, newest batch first')
      .option('--partner <partner>', 'only this partner (name or id)')
      .addOption(outcomeOption())
      .option(...fromOption)
      .option(...toOption)
      .option('--limit <n>', 'at most this many', wholeNumber(1, 100_000), 200),
  ).action((options: { partner?: string; outcome?: string; from?: string; to?: string; limit: number }, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const rows = await listRemittanceEntries(ops, { ...options, exceptionsOnly: true, range: parseTimeRange(options.from, options.to) });
      out.emit(rows.map(exportJson), () => tableOr(rows, exceptionColumns, 'No exceptions match.'));
    }),
  );

  withJson(
    remittances
      .command('export')
      .description('Export entries with their outcomes, as CSV or JSON: one batch (--batch) or across batches'),
  )
    .addOption(new Option('--format <format>', 'file format (--json is short for --format json)').choices(['csv', 'json']).default('csv'))
    .option('--output <file>', 'write to this file instead of stdout')
    .option('--batch <batchId>', 'only this batch')
    .option('--partner <partner>', 'only this partner (name or id)')
    .addOption(outcomeOption())
    .option('--exceptions', 'only entries whose outcome is not matched')
    .option(...fromOption)
    .option(...toOption)
    .option('--limit <n>', 'at most this many entries', wholeNumber(1, 10_000_000), 1_000_000)
    .action((options: ExportOptions, command: Command) =>
      ctx.run(command, async ({ ops, io }) => {
        const rows = await listRemittanceEntries(ops, {
          batchId: options.batch,
          partner: options.partner,
          outcome: options.outcome,
          exceptionsOnly: options.exceptions,
          range: parseTimeRange(options.from, options.to),
          limit: options.limit,
        });
        const text = options.format === 'json' || options.json ? `${JSON.stringify(rows.map(exportJson), null, 2)}\n` : toCsv(rows);
        if (!options.output) return io.stdout(text);
        const path = resolve(io.cwd, options.output);
        writeFileSync(path, text);
        io.stderr(`Wrote ${rows.length} entr${rows.length === 1 ? 'y' : 'ies'} to ${path}\n`);
      }),
    );

  withOperator(
    withJson(
      remittances
        .command('retry')
        .description('Reconcile a batch again that is not completed (typically dead-lettered): a new job with fresh retries')
        .argument('<batchId>', 'the batch'),
    ),
  ).action((batchId: string, _options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const result = await retryRemittanceBatch(ops, batchId);
      out.emit(result, () => `Batch ${batchId} queued for reconciliation again (job ${result.jobId}). The running service picks it up within seconds.`);
    }),
  );

  withJson(remittances.command('queue').description('Reconciliation jobs by state, and batches that ran out of retries')).action((_options, command: Command) =>
    ctx.run(command, async ({ ops, out }) => {
      const queues = await queueSummary(ops);
      const deadLettered = await listRemittanceBatches(ops, { deadLettered: true, range: {}, limit: 1000 });
      out.emit({ queues, deadLetteredBatches: deadLettered.map((b) => b.batchId) }, () =>
        [
          tableOr(Object.entries(queues), [
            { header: 'Queue', value: ([name]) => name },
            ...['created', 'retry', 'active', 'completed', 'failed'].map((state) => ({ header: state, value: ([, counts]: [string, Record<string, number>]) => counts[state] ?? 0 })),
          ], ''),
          deadLettered.length === 0
            ? 'No batch is dead-lettered.'
            : `Dead-lettered batches (retry with "remittances retry <batchId>"):\n${tableOr(deadLettered, batchColumns, '')}`,
        ].join('\n'),
      );
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

const problem = (b: BatchSummary) =>
  b.deadLetteredAt ? `DEAD-LETTERED: ${b.lastError ?? 'out of retries'}` : b.lastError && !b.completedAt ? `retrying: ${b.lastError}` : null;

const batchColumns: Column<BatchSummary>[] = [
  { header: 'Batch', value: (b) => b.batchId },
  { header: 'Received', value: (b) => b.receivedAt },
  { header: 'Partner', value: (b) => b.partnerName },
  { header: 'Fundraiser', value: (b) => b.fundraiserId },
  { header: 'Status', value: (b) => b.status },
  { header: 'Entries', value: (b) => b.entries },
  { header: 'AUD', value: (b) => formatCents(b.totalCents) },
  { header: 'Matched', value: (b) => b.outcomeCounts.matched },
  { header: 'Exceptions', value: (b) => b.exceptions },
  { header: 'Attempts', value: (b) => b.attempts },
  { header: 'Problem', value: problem },
];

const batchJson = (b: BatchSummary) => ({ ...b, totalAud: formatCents(b.totalCents) });

function batchFields(b: BatchSummary, jobs: Record<string, number>): string {
  const exceptions = Object.entries(b.outcomeCounts).filter(([outcome, n]) => outcome !== 'matched' && n > 0);
  return fields([
    ['Batch', b.batchId],
    ['Partner', `${b.partnerName} (${b.partnerId}), ${b.environment}`],
    ['Channel / fundraiser', `${b.channel} / ${b.fundraiserId}`],
    ['Received', b.receivedAt],
    ['Status', b.status],
    ['Entries / total AUD', `${b.entries} / ${formatCents(b.totalCents)}`],
    ['Matched', b.outcomeCounts.matched ?? (b.completedAt ? 0 : null)],
    ['Exceptions', exceptions.length === 0 ? (b.completedAt ? 'none' : null) : exceptions.map(([o, n]) => `${o} ${n}`).join(', ')],
    ['Started / completed', `${b.startedAt ? b.startedAt.toISOString() : '-'} / ${b.completedAt ? b.completedAt.toISOString() : '-'}`],
    ['Attempts', b.attempts],
    ['Last error', b.lastError ? `${b.lastError} (${b.lastErrorAt?.toISOString()})` : null],
    ['Dead-lettered', b.deadLetteredAt],
    ['Queue jobs', Object.keys(jobs).length === 0 ? null : jobs],
  ]);
}

const entryColumns: Column<EntryReport>[] = [
  { header: '#', value: (e) => e.index },
  { header: 'Bank reference', value: (e) => e.bankReferenceId },
  { header: 'AUD', value: (e) => e.amount.toFixed(2) },
  { header: 'Donations', value: (e) => e.donationIds },
  { header: 'Outcome', value: (e) => e.outcome ?? 'pending' },
  { header: 'Detail', value: (e) => e.detail },
];

const exceptionColumns: Column<BatchEntryRow>[] = [
  { header: 'Received', value: (e) => e.batch_created_at },
  { header: 'Partner', value: (e) => e.partner_name },
  { header: 'Batch', value: (e) => e.batch_id },
  { header: '#', value: (e) => e.position },
  { header: 'Bank reference', value: (e) => e.bank_reference_id },
  { header: 'AUD', value: (e) => formatCents(Number(e.amount_cents)) },
  { header: 'Outcome', value: (e) => e.outcome },
  { header: 'Detail', value: (e) => e.outcome_detail },
];

/** One exported entry; the same fields in CSV (donation ids separated by spaces) and JSON. */
function exportJson(e: BatchEntryRow) {
  return {
    batchId: e.batch_id,
    receivedAt: new Date(e.batch_created_at).toISOString(),
    partner: e.partner_name,
    environment: e.environment,
    fundraiserId: e.fundraiser_id,
    batchStatus: e.batch_status,
    index: e.position,
    bankReferenceId: e.bank_reference_id,
    amountAud: formatCents(Number(e.amount_cents)),
    donationIds: e.donation_ids,
    outcome: e.outcome,
    detail: e.outcome_detail,
  };
}

function toCsv(rows: BatchEntryRow[]): string {
  const records = rows.map((row) => {
    const e = exportJson(row);
    return { ...e, donationIds: e.donationIds.join(' ') };
  });
  const columns = ['batchId', 'receivedAt', 'partner', 'environment', 'fundraiserId', 'batchStatus', 'index', 'bankReferenceId', 'amountAud', 'donationIds', 'outcome', 'detail'];
  return stringify(records, { header: true, columns });
}
