import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { applicationInfo } from '../../src/version.js';
import { createTestDatabase } from '../helpers/database.js';
import { cli, ok, type Cli } from './harness.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** --version, and imports that end with a summary (counts, the first problems) instead of a row per account. */
describe('fundraiser-admin --version and import summaries', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let run: Cli;
  const dir = mkdtempSync(join(tmpdir(), 'import-summary-'));
  beforeAll(async () => {
    database = await createTestDatabase();
    run = cli({ database });
  });
  afterAll(() => database?.dispose());

  it('prints the version', async () => {
    let stdout = '';
    const code = await runCli(['--version'], { stdout: (t) => void (stdout += t) });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(applicationInfo.version);
  });

  it('summarises a large import in a few lines; --json still lists every account', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `${40000000 + i},,Club ${i},,Storefront App,Activated,5;10`);
    const file = join(dir, 'many.csv');
    writeFileSync(file, `memberNumber,crmId,name,abn,channel,status,donationAmounts\n${rows.join('\n')}\n`);
    const human = await run('accounts', 'import', file);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Imported 300 account(s)');
    expect(human.stdout.split('\n').length).toBeLessThan(15);
    expect(human.stdout).not.toContain('40000299');
    const json = await ok(run, 'accounts', 'import', file, '--dry-run');
    expect(json.accounts).toHaveLength(300);
    expect(json.updated).toBe(300);
  });

  it('shows the first problems of a rejected file, and how many more', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${50000000 + i},,Club ${i},,No Such Channel,Activated,5`);
    const file = join(dir, 'bad.csv');
    writeFileSync(file, `memberNumber,crmId,name,abn,channel,status,donationAmounts\n${rows.join('\n')}\n`);
    const result = await run('accounts', 'import', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('30 problems found');
    expect(result.stderr).toContain('… and 10 more; --json lists every one.');
    const json = await run('accounts', 'import', file, '--json');
    expect(JSON.parse(json.stderr).error.problems).toHaveLength(30);
  });
});
