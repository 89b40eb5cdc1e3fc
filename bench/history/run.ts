/**
 * `npm run bench:history`: the bench's figures on a three-season history and on an empty database, in the same run,
 * on PostgreSQL (DATABASE_URL, default the local server). Two scratch databases are created and migrated by the
 * service's first start; the history (bench/history/model.ts, load.ts) is loaded into one by COPY; then the same
 * figures (bench/history/figures.ts) are taken on each in turn, and the ratio history ÷ empty of each is printed and
 * written to BENCHMARKS.md between `<!-- bench:history -->` markers. Kept out of CI: it is a measurement.
 *
 * Knobs (environment): BENCH_HISTORY_SCALE (default 1: 5,000,000 donations; 0.02 to develop), BENCH_SECONDS
 * (each load workload, default 5), and the bench's own workload sizes, scaled down here so that the whole run fits
 * in about a quarter of an hour: BENCH_THROUGHPUT_BATCHES (200), BENCH_REPORT_ENTRIES (100,000),
 * BENCH_STATEMENT_LINES (10,000), BENCH_RECEIPTS (1,000), BENCH_DEBITS (1,000), BENCH_MONEY_RUNS (1);
 * BENCH_KEEP and BENCH_KEEP_DATABASE as in the bench.
 */

const DEFAULTS: Record<string, string> = {
  BENCH_SECONDS: '5',
  BENCH_THROUGHPUT_BATCHES: '200',
  BENCH_REPORT_ENTRIES: '100000',
  BENCH_STATEMENT_LINES: '10000',
  BENCH_RECEIPTS: '1000',
  BENCH_DEBITS: '1000',
  BENCH_MONEY_RUNS: '1',
};
// Before the bench's modules are loaded: they read their sizes when they are.
for (const [key, value] of Object.entries(DEFAULTS)) process.env[key] ??= value;
process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

const { runHistoryBench } = await import('./bench.js');
await runHistoryBench(Object.keys(DEFAULTS));
