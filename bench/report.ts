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
  return (
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}) shared by load generator, service and database; ` +
    `${(totalmem() / 1024 ** 3).toFixed(1)} GiB; Linux ${release()}; Node ${process.version}; ` +
    `${database.version.split(' on ')[0]}, ${database.location}; load average ${database.loadAtStart.toFixed(2)} at the start.`
  );
}

const HEADER = `# Benchmarks

The scoreboard: every target with its latest result per database, then the latest run of each kind, each section
rewritten by its run (\`npm run bench\`, \`DATABASE_URL=postgres://… npm run bench\`, \`npm run bench:history\`,
\`npm run soak\`). How the figures are taken, where the time and memory go, and past runs:
[docs/performance.md](docs/performance.md).

<!-- bench:targets -->
<!-- /bench:targets -->
`;

/**
 * Replaces one run's section of BENCHMARKS.md (creating the file if needed), keeping the rest, then rebuilds the
 * targets table at the top from every section. A section keeps its targets as one machine-readable comment and a
 * one-line count, so the file stays a short scoreboard however many targets there are.
 */
export function writeSection(file: string, kind: string, body: string): void {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const withSection = replaceBlock(current, kind, compactTargets(body));
  writeFileSync(file, replaceBlock(withSection, 'targets', targetsTable(withSection)));
}

function replaceBlock(text: string, kind: string, body: string): string {
  const start = `<!-- bench:${kind} -->`;
  const end = `<!-- /bench:${kind} -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  return from >= 0 && to > from
    ? text.slice(0, from) + block + text.slice(to + end.length)
    : `${text.trimEnd()}\n\n${block}\n`;
}

// "not yet measured": the soak's, for a target its run was too short to judge; recorded as not applicable.
const TARGET_LINE = /^- (met|missed|n\/a|not yet measured): (.*)$/;
const RECORD = /^<!-- targets (\[.*\]) -->$/;

/** The "Targets:" list of a section's body (targetsList) becomes a count and a one-line record of each target. */
export function compactTargets(body: string): string {
  const lines = body.split('\n');
  const at = lines.indexOf('Targets:');
  if (at < 0) return body;
  let end = at + 1;
  while (end < lines.length && TARGET_LINE.test(lines[end]!)) end++;
  const targets = lines.slice(at + 1, end).map(parseTargetLine);
  const count = (status: string) => targets.filter((t) => statusOf(t) === status).length;
  const summary =
    `Targets: ${count('met')} met, ${count('missed')} missed, ${count('n/a')} not applicable to this database ` +
    '([the table](#targets)).';
  return [...lines.slice(0, at), summary, `<!-- targets ${JSON.stringify(targets)} -->`, ...lines.slice(end)].join(
    '\n',
  );
}

const statusOf = (t: Target) => (t.met === null ? 'n/a' : t.met ? 'met' : 'missed');

/** `- met: description (actual)`: the actual figure is the last balanced parenthesis of the line. */
function parseTargetLine(line: string): Target {
  const [, status, rest] = TARGET_LINE.exec(line)!;
  let depth = 0;
  let open = -1;
  if (rest!.endsWith(')'))
    for (let i = rest!.length - 1; i >= 0; i--) {
      if (rest![i] === ')') depth++;
      else if (rest![i] === '(' && --depth === 0) {
        open = i;
        break;
      }
    }
  const met = status === 'met' ? true : status === 'missed' ? false : null;
  return open > 0
    ? { description: rest!.slice(0, open).trim(), met, actual: rest!.slice(open + 1, -1) }
    : { description: rest!, met, actual: '' };
}

/**
 * One row per target, one column per database kind, read from every section's record. A target measured by several
 * sections of one kind shows the full run's result (the section named by the kind alone), else the first section's.
 */
export function targetsTable(text: string): string {
  const rows = new Map<
    string,
    { postgres?: string; embedded?: string; rank: { postgres: number; embedded: number } }
  >();
  for (const match of text.matchAll(/<!-- bench:([a-z0-9:,-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) {
    const kind = match[1]!;
    const column = kind.startsWith('embedded') ? 'embedded' : 'postgres';
    const rank = kind === 'postgres' || kind === 'embedded' ? 0 : 1;
    const record = match[2]!.split('\n').find((line) => RECORD.test(line));
    if (!record) continue;
    for (const target of JSON.parse(RECORD.exec(record)![1]!) as Target[]) {
      const row = rows.get(target.description) ?? { rank: { postgres: 9, embedded: 9 } };
      if (rank < row.rank[column]) {
        row[column] = `${statusOf(target)}: ${shortActual(target.actual)}`;
        row.rank[column] = rank;
      }
      rows.set(target.description, row);
    }
  }
  const cell = (value: string | undefined) => (value ?? 'not run').replaceAll('|', '\\|');
  return [
    '## Targets',
    '',
    'Each target with its latest result: met, missed, or n/a where the target is stated for the other database.',
    '',
    '| target | PostgreSQL | embedded (PGlite) |',
    '|---|---|---|',
    ...[...rows].map(
      ([description, row]) => `| ${cell(description)} | ${cell(row.postgres)} | ${cell(row.embedded)} |`,
    ),
  ].join('\n');
}

/** The actual figure up to its first clause: the table's cell, the section keeps the rest. */
function shortActual(actual: string): string {
  const first = actual.split(/; |, runs /)[0]!;
  return first.length > 70 ? `${first.slice(0, 67)}…` : first;
}
