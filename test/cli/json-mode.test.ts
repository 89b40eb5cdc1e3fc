import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';

/**
 * With --json a script parses each stream whole: the result alone on stdout, and on stderr nothing or one JSON
 * document. The CLI opens its database from the environment here, as an operator runs it (not an injected one), so
 * the "Database: …" line it prints for people is part of what is checked: PostgreSQL when TEST_DATABASE_URL is set,
 * otherwise an embedded data directory.
 */
const scratchDir = mkdtempSync(join(tmpdir(), 'fundraiser-admin-json-'));
let env: Record<string, string>;
let dropDatabase = async () => {};
beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL);
    env = { DATABASE_URL: scratch.url };
    dropDatabase = () => scratch.drop();
  } else {
    env = { DATA_DIR: join(scratchDir, 'data') };
  }
  expect((await admin('migrate')).code).toBe(0);
}, 180_000);
afterAll(async () => {
  await dropDatabase();
  rmSync(scratchDir, { recursive: true, force: true });
});

async function admin(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env,
    cwd: scratchDir,
    defaultOperator: () => 'json-tester',
    interactive: false,
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

/** The whole text as one JSON document, or a failure that shows the text. */
function parsed(text: string, stream: string): any {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${stream} is not one JSON document:\n${text}`);
  }
}

describe('fundraiser-admin --json writes nothing but JSON', () => {
  it('names the database on stderr for people, and leaves that line out of a successful JSON run', async () => {
    const human = await admin('channels', 'list');
    expect(human.code).toBe(0);
    expect(human.stderr).toMatch(/^Database: \S.*\n$/);

    const json = await admin('channels', 'list', '--json');
    expect(json.code).toBe(0);
    expect(parsed(json.stdout, 'stdout').map((c: { name: string }) => c.name)).toContain('Storefront App');
    expect(json.stderr).toBe('');
  }, 120_000);

  it('a failing command: stdout empty, stderr one document with the error and the database', async () => {
    const location = (await admin('channels', 'list')).stderr.replace(/^Database: (.*)\n$/, '$1');
    const result = await admin('partners', 'show', 'Nobody Co', '--json');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(parsed(result.stderr, 'stderr')).toEqual({
      error: { message: expect.stringContaining('Nobody Co') },
      database: location,
    });
  }, 120_000);

  it('warnings, which people read on stderr, come as one document beside the result', async () => {
    expect((await admin('partners', 'create', 'Json Co', '--channel', 'Storefront App', '--json')).code).toBe(0);
    const human = await admin('credentials', 'issue', 'Json Co', '--env', 'production');
    expect(human.stderr).toMatch(/^Database: .*\nWarning: this deployment runs as sit/);
    expect(human.stdout).toContain('shown only this once');

    const result = await admin('credentials', 'issue', 'Json Co', '--env', 'production', '--json');
    expect(result.code).toBe(0);
    expect(parsed(result.stdout, 'stdout')).toMatchObject({ environment: 'production' });
    expect(result.stdout).not.toContain('shown only this once');
    expect(parsed(result.stderr, 'stderr')).toEqual({
      warnings: [expect.stringMatching(/^this deployment runs as sit; a production pair only works/)],
      database: expect.any(String),
    });
  }, 120_000);

  it('an export to a file says so on stdout as JSON instead of a line on stderr', async () => {
    const result = await admin('remittances', 'export', '--json', '--output', 'entries.json');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const path = join(scratchDir, 'entries.json');
    expect(parsed(result.stdout, 'stdout')).toEqual({ file: path, bytes: expect.any(Number), entries: 0 });
    expect(parsed(readFileSync(path, 'utf8'), path)).toEqual([]);
  }, 120_000);

  it('a wrong command line, and settings refused before any database opens, are JSON documents too', async () => {
    const missing = await admin('partners', 'create', 'Json Co 2', '--json');
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(parsed(missing.stderr, 'stderr')).toEqual({
      error: { message: "required option '--channel <name>' not specified" },
    });

    const unknown = await admin('partners', 'frobnicate', '--json');
    expect(unknown.code).toBe(2);
    expect(parsed(unknown.stderr, 'stderr').error.message).toMatch(/unknown command 'frobnicate'/);

    // A group takes no options: its usage is not printed where the document goes.
    const noCommand = await admin('partners', '--json');
    expect(noCommand.code).toBe(2);
    expect(noCommand.stdout).toBe('');
    expect(parsed(noCommand.stderr, 'stderr').error.message).toBe("unknown option '--json'");

    const badSetting = await runCli(['channels', 'list', '--json'], {
      env: { ...env, APP_ENV: 'moon' },
      stdout: () => undefined,
      stderr: (text) => expect(parsed(text, 'stderr').error.message).toMatch(/APP_ENV/),
    });
    expect(badSetting).toBe(1);

    // Without --json, people get commander's own lines.
    const human = await admin('partners', 'create', 'Json Co 2');
    expect(human.code).toBe(2);
    expect(human.stderr).toContain("error: required option '--channel <name>' not specified");
    expect(human.stderr).toContain('(add --help for usage)');
  }, 120_000);
});
