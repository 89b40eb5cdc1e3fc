import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { redactUrl } from '../../src/infrastructure/db/connect.js';
import { createBenchDatabase, databaseVersionOf, type BenchDatabase } from '../database.js';
import { machineDescription, targetsList, writeSection, type Target } from '../report.js';
import { buildService } from '../service.js';
import { measureFigures, type Figure, type Side } from './figures.js';
import type { HistoryLoad } from './load.js';
import { HISTORY_SCALE, prepareDatabase, reuseHistory } from './prepare.js';

/** The target, worded as BENCHMARKS.md's Targets list words it. */
const TARGET = 'every bench figure on a three-season history within 1.25 × the empty database on PostgreSQL';
const LIMIT = 1.25;
const progress = (message: string) => process.stderr.write(`[bench:history] ${message}\n`);

export async function runHistoryBench(knobs: string[]): Promise<void> {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const serverUrl = process.env.DATABASE_URL!;
  const workDir = mkdtempSync(join(tmpdir(), 'fundraiser-bench-history-'));
  const startedAt = Date.now();
  const [loadAtStart] = loadavg();
  progress('npm run build (the service runs compiled, as npm start and the image run it)');
  buildService(repoRoot);
  const databases: BenchDatabase[] = [];
  try {
    const sides: Prepared[] = [];
    for (const name of ['empty', 'history']) {
      const dir = join(workDir, name);
      mkdirSync(dir, { recursive: true });
      const reused = name === 'history' && process.env.BENCH_HISTORY_URL;
      if (reused) {
        progress(`history: reusing ${redactUrl(reused)} (BENCH_HISTORY_URL), not loading`);
        sides.push({ name, workDir: dir, load: null, ...(await reuseHistory(reused)) });
        continue;
      }
      const database = await createBenchDatabase(serverUrl, dir);
      databases.push(database);
      const prepared = await prepareDatabase({
        repoRoot,
        workDir: dir,
        database,
        name,
        withHistory: name === 'history',
        progress,
      });
      sides.push({ name, database, workDir: dir, ...prepared });
    }
    progress('the figures, on both databases side by side');
    const [emptyFigures, historyFigures] = await measureFigures({
      repoRoot,
      sides: [sides[0]!, sides[1]!],
      seconds: Number(process.env.BENCH_SECONDS),
      progress,
    });
    const [empty, history] = [sides[0]!, sides[1]!];
    const rows = compare(emptyFigures, historyFigures);
    const target = evaluate(rows);
    const load = history.load;
    const body = [
      '## PostgreSQL: three-season history',
      '',
      `Command: \`${knobs
        .concat('BENCH_HISTORY_SCALE', 'BENCH_HISTORY_URL')
        .filter((k) => process.env[k] !== undefined && k !== 'BENCH_SECONDS')
        .map((k) => `${k}=${k === 'BENCH_HISTORY_URL' ? redactUrl(process.env[k]!) : process.env[k]} `)
        .join(
          '',
        )}DATABASE_URL=${redactUrl(serverUrl)} npm run bench:history\` — ${new Date(startedAt).toISOString()}, whole run ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`,
      '',
      machineDescription({
        kind: 'postgres',
        location: `server at ${new URL(serverUrl).host}, two fresh databases`,
        version: await databaseVersionOf(empty.database),
        loadAtStart: loadAtStart ?? 0,
      }),
      '',
      (load
        ? `History at scale ${HISTORY_SCALE} (bench/history/model.ts), loaded by COPY in ${(load.totalMs / 1000).toFixed(0)} s: ` +
          load.tables
            .map(
              (t) =>
                `${t.table} ${t.rows ? `${t.rows.toLocaleString('en-US')} rows ` : ''}${(t.ms / 1000).toFixed(1)} s`,
            )
            .join(', ') +
          `. The bench's partner holds ${load.benchPartnerDonations.toLocaleString('en-US')} of the donations. `
        : `History loaded by an earlier run (BENCH_HISTORY_URL, scale ${HISTORY_SCALE}). `) +
        `Load workloads: ${process.env.BENCH_SECONDS} s each after 1 s of warm-up, one run; their cost is µs per request (1 / req/s).`,
      '',
      'Targets:',
      targetsList([target]),
    ].join('\n');
    const figures = [
      '| figure | empty | history | ratio |',
      '|---|---:|---:|---:|',
      ...rows.map((r) => `| ${r.label} | ${r.empty} | ${r.history} | ${r.ratio === null ? '—' : r.ratio.toFixed(2)} |`),
    ].join('\n');
    process.stdout.write(`\n${body}\n\n${figures}\n`);
    // The scoreboard keeps each figure's ratio on one line; the whole table (each side's figure) is printed above
    // and goes into docs/performance/history.md with what it means.
    const ratios = rows.map(
      (r) => `${r.label} ${r.ratio === null ? `— (${r.error ?? 'not measured'})` : r.ratio.toFixed(2)}`,
    );
    writeSection(
      join(repoRoot, 'BENCHMARKS.md'),
      'history',
      body.replace('\nTargets:', `\nRatios: ${ratios.join('; ')}.\n\nTargets:`),
    );
  } finally {
    for (const database of databases) await database.drop();
    if (!process.env.BENCH_KEEP) rmSync(workDir, { recursive: true, force: true });
  }
}

type Prepared = Side & { load: HistoryLoad | null };

interface Compared {
  key: string;
  label: string;
  empty: string;
  history: string;
  ratio: number | null;
  error: string | null;
}

/** An error in one table cell: its first line, and the statement timeout named when a child's stack hides it. */
const brief = (error: string) => {
  const first = (error.split('\n')[0] ?? '').slice(0, 100);
  return /57014|statement timeout/.test(error) ? `statement timeout (57014): ${first}` : first;
};

function compare(empty: Figure[], history: Figure[]): Compared[] {
  return empty.map((e) => {
    const h = history.find((f) => f.key === e.key);
    const ratio = h && e.cost && h.cost !== null && !e.error && !h.error ? h.cost / e.cost : null;
    return {
      key: e.key,
      label: e.label,
      empty: e.error ? `not measured: ${brief(e.error)}` : e.shown,
      history: !h ? 'not measured' : h.error ? `not measured: ${brief(h.error)}` : h.shown,
      ratio,
      error: e.error ? brief(e.error) : h?.error ? brief(h.error) : h ? null : 'not measured',
    };
  });
}

function evaluate(rows: Compared[]): Target {
  const over = rows.filter((r) => r.ratio === null || r.ratio > LIMIT);
  const worst = rows.reduce<Compared | null>((w, r) => (r.ratio !== null && (!w || r.ratio > w.ratio!) ? r : w), null);
  return {
    description: TARGET,
    met: over.length === 0,
    // The figures over the bound are named in the table above; brief here, as the scoreboard's cell shows it.
    actual:
      over.length === 0
        ? `highest ratio ${worst?.ratio?.toFixed(2)}, ${worst?.label}`
        : `${over.length} of ${rows.length} figures over ${LIMIT} or not measured: ${over.map((r) => r.key).join(', ')}`,
  };
}
