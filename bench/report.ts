import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';

export interface Row {
  workload: string;
  rps?: number;
  /** Latency in ms, or for a one-shot row its single measurement already formatted. */
  p50?: number | string;
  p99?: number;
  errors?: number;
  baselineRps?: number;
  /** Lowest and highest req/s of the runs, when measured more than once. */
  rpsRange?: [number, number];
  baselineRange?: [number, number];
  /** The median of the paired service/baseline ratios and their spread. */
  ratio?: { median: number; range: [number, number] };
}

export interface Target {
  description: string;
  met: boolean | null;
  actual: string;
}

const DASH = '—';
const ms = (value: number | undefined) => (value === undefined ? DASH : `${value} ms`);
const int = (value: number | undefined) => (value === undefined ? DASH : Math.round(value).toLocaleString('en-US'));

const spread = (value: number | undefined, range: [number, number] | undefined) =>
  range && value !== undefined ? `${int(value)} (${int(range[0])}–${int(range[1])})` : int(value);

export function table(rows: Row[]): string {
  const lines = [
    '| workload | req/s | p50 | p99 | errors | baseline req/s | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const ratio = row.ratio
      ? `${row.ratio.median.toFixed(2)} (${row.ratio.range.map((r) => r.toFixed(2)).join('–')})`
      : DASH;
    const p50 = typeof row.p50 === 'string' ? row.p50 : ms(row.p50);
    lines.push(
      `| ${row.workload} | ${spread(row.rps, row.rpsRange)} | ${p50} | ${ms(row.p99)} | ${row.errors ?? DASH} | ${spread(row.baselineRps, row.baselineRange)} | ${ratio} |`,
    );
  }
  return lines.join('\n');
}

export function targetsList(targets: Target[]): string {
  return targets
    .map((t) => `- ${t.met === null ? 'n/a' : t.met ? 'met' : 'missed'}: ${t.description} (${t.actual})`)
    .join('\n');
}

export function machineDescription(database: {
  kind: string;
  location: string;
  version: string;
  loadAtStart: number;
}): string {
  const cpu = cpus();
  return [
    `- CPU: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}); load generator, service and database share them`,
    `- Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB; Linux ${release()}`,
    `- Node ${process.version}`,
    `- Database: ${database.version.split(' on ')[0]}, ${database.location}`,
    `- 1-minute load average when the run started (other work on the machine): ${database.loadAtStart.toFixed(2)}`,
  ].join('\n');
}

const HEADER = `# Benchmarks

\`npm run bench\` (embedded PGlite) or \`DATABASE_URL=postgres://… npm run bench\` (a fresh database created on that
server and dropped afterwards). It starts the real service (\`src/server.ts\`) as a child process and loads it with
autocannon from the bench process; the baselines are bare \`node:http\` servers (\`bench/baseline-server.ts\`) measured
in the same run. Each section below is rewritten by the run of its database kind.
`;

/** Replaces this database kind's section of BENCHMARKS.md (creating the file if needed), keeping the rest. */
export function writeSection(file: string, kind: string, body: string): void {
  const start = `<!-- bench:${kind} -->`;
  const end = `<!-- /bench:${kind} -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + section + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
