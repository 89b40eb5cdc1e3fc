import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compactTargets, targetsTable } from '../../bench/report.js';

const section = (kind: string, targets: string[]) =>
  `<!-- bench:${kind} -->\n## ${kind}\n\nTargets:\n${targets.join('\n')}\n<!-- /bench:${kind} -->`;

describe('the benchmarks scoreboard', () => {
  it('keeps each target once, its figure from the last balanced parenthesis, one column per database', () => {
    const postgres = compactTargets(
      section('postgres', [
        '- met: resumed ≤ 5 s (median 1.34 s; settled once each: yes (2000 settlements, 2 runs))',
        '- n/a: POST /mandates p99 ≤ 100 ms on the embedded database (34 ms)',
      ]),
    );
    const embedded = compactTargets(section('embedded', ['- missed: resumed ≤ 5 s (median 6.10 s)']));
    expect(postgres).toContain('Targets: 1 met, 0 missed, 1 not applicable to this database');
    expect(postgres).not.toContain('- met:');

    const table = targetsTable(`${postgres}\n\n${embedded}`).split('\n');
    expect(table).toContain('| resumed ≤ 5 s | met: median 1.34 s | missed: median 6.10 s |');
    expect(table).toContain('| POST /mandates p99 ≤ 100 ms on the embedded database | n/a: 34 ms | not run |');
  });

  it('prefers the full run of a database over a section of some workloads alone', () => {
    const alone = compactTargets(section('postgres:receipts', ['- missed: receipts ≥ 200 per second (150/s)']));
    const full = compactTargets(section('postgres', ['- met: receipts ≥ 200 per second (380/s)']));
    expect(targetsTable(`${alone}\n${full}`)).toContain('| receipts ≥ 200 per second | met: 380/s | not run |');
  });

  it('is short enough to read: BENCHMARKS.md stays a scoreboard, the analysis lives in docs/performance.md', () => {
    const lines = readFileSync(new URL('../../BENCHMARKS.md', import.meta.url), 'utf8').split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(lines.filter((line) => line.startsWith('### '))).toEqual([]);
  });
});
