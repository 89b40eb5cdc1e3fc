import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok, type Cli } from '../cli/harness.js';

/** What the grants' bank-details tests share: clubs, files, a clock they move. */
export const EXAMPLES = join(import.meta.dirname, '../../examples');
const scratch = mkdtempSync(join(tmpdir(), 'grants-bank-'));

export function scratchFile(name: string, content: string): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

/** Creates clubs (accounts without products) through the accounts import. */
export async function createClubs(run: Cli, clubs: [memberNumber: string, name: string][]) {
  const csv = ['memberNumber,name', ...clubs.map(([m, n]) => `${m},${n}`)].join('\n');
  await ok(run, 'accounts', 'import', scratchFile(`clubs-${clubs[0]![0]}.csv`, csv));
}

/** A clock tests set and move: every CLI run and service reads it. */
export function testClock(start: string) {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (at: string | Date) => void (current = new Date(at).getTime()),
    advanceDays: (days: number) => void (current += days * 86_400_000),
  };
}

export const DAY = 86_400_000;
