import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/infrastructure/db/connect.js';
import { usingPostgres } from '../helpers/database.js';

const BIN = join(import.meta.dirname, '../../bin/fundraiser-admin.js');
const EXAMPLES = join(import.meta.dirname, '../../examples');
const dataDir = mkdtempSync(join(tmpdir(), 'fundraiser-admin-bin-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The installed command, as an operator runs it: a child process on an embedded data directory. */
async function admin(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // Only what the CLI needs: the developer's DATABASE_URL must not redirect it.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...argv], { env, timeout: 150_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe.skipIf(usingPostgres())('the fundraiser-admin bin', () => {
  it('refuses to create an embedded database implicitly, saying how; migrate creates it', async () => {
    const refused = await admin('channels', 'list', '--json');
    expect(refused.code).toBe(1);
    // With --json, stderr is one JSON document, whole: a script parses it as is.
    const { message } = JSON.parse(refused.stderr).error;
    expect(message).toContain(`There is no embedded database in ${dataDir}`);
    expect(message).toContain('fundraiser-admin migrate');
    expect(refused.stdout).toBe('');

    const migrated = await admin('migrate', '--json');
    expect(migrated.code).toBe(0);
    expect(JSON.parse(migrated.stdout).applied.length).toBeGreaterThan(0);
    expect(migrated.stderr).toBe('');
  }, 180_000);

  it('then onboards a partner and imports reference data, saying which database it opens', async () => {
    const channels = await admin('channels', 'list', '--json');
    expect(channels.code).toBe(0);
    expect(channels.stderr).toBe('');
    expect(JSON.parse(channels.stdout).map((c: { name: string }) => c.name)).toEqual([
      'Registration Integration',
      'Storefront App',
    ]);

    const created = await admin(
      'partners',
      'create',
      'Bin Partner',
      '--channel',
      'Storefront App',
      '--quota-limit',
      '50',
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Partner created.');
    expect(created.stderr).toBe(`Database: embedded database in ${dataDir}\n`);
    const imported = await admin(
      'accounts',
      'import',
      join(EXAMPLES, 'accounts.csv'),
      '--json',
      '--operator',
      'data-desk',
    );
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: 3, products: 4 });

    const audit = JSON.parse((await admin('audit', 'list', '--json')).stdout);
    // The operator is the OS user unless --operator names someone.
    expect(audit.map((e: { action: string; actor: string }) => `${e.action} by ${e.actor}`)).toEqual([
      'accounts.import by data-desk',
      // The example file gives two clubs bank details (pending changes) and one a GST registration.
      'club.bank_details_set by data-desk',
      'club.bank_details_set by data-desk',
      'club.gst by data-desk',
      `partner.create by ${userInfo().username}`,
    ]);
  }, 180_000);

  it('refuses to open an embedded data directory another process is using', async () => {
    const service = await connectDatabase({ dataDir });
    try {
      const result = await admin('partners', 'list');
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Error: The embedded database directory .* is already in use by another process/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const json = await admin('partners', 'list', '--json');
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stderr).error.message).toMatch(/already in use by another process/);
    } finally {
      await service.close();
    }
  }, 180_000);

  it('exits 2 on a wrong command line and 0 on --help', async () => {
    const wrong = await admin('partners', 'create');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("required option '--channel <name>' not specified");
    const help = await admin('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: fundraiser-admin');
  }, 180_000);
});
