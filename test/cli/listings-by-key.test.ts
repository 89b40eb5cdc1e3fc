import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { camt053, dayOf } from '../bank-statements/support.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { cli, ok, type Cli } from './harness.js';

/**
 * `--after` on the CLI's lists read by key (docs/decisions/0074-operators-listings-by-key.md): page after page gives
 * every row once, a person is told how to ask for the next page, and a cursor the list did not give is a clear error.
 */
let t: TestApp;
let run: Cli;
beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now, operator: 'lists@foundation.example' });
}, 180_000);
afterAll(() => t?.close());

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('audit list --after', () => {
  it('walks the log newest first, each entry once, after the last id of each page', async () => {
    await sql`
      insert into audit_log (at, actor, action, subject, details)
      select ${t.clock.now()}::timestamptz - (i % 7) * interval '1 minute', 'walker@example.org', 'partner.update',
             'partner:walker', jsonb_build_object('n', i)
      from generate_series(1, 23) i`.execute(t.db);
    const all = await ok(run, 'audit', 'list', '--operator', 'walker@example.org', '--limit', '1000');
    expect(all).toHaveLength(23);
    const walked: { id: number }[] = [];
    let page: { id: number }[] = await ok(run, 'audit', 'list', '--operator', 'walker@example.org', '--limit', '5');
    while (page.length > 0) {
      walked.push(...page);
      const after = String(page.at(-1)!.id);
      page = await ok(run, 'audit', 'list', '--operator', 'walker@example.org', '--limit', '5', '--after', after);
    }
    expect(walked).toEqual(all);
    const human = await run('audit', 'list', '--operator', 'walker@example.org', '--limit', '5');
    expect(human.stdout).toMatch(/More: run again with --after \d+/);
    const refused = await run('audit', 'list', '--after', 'x1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('after: "x1" is not the id of an audit entry.');
    noStack(refused.stderr);
  });
});

describe('receipts outbox --after', () => {
  it('walks failed messages newest first, counts the unsent exactly and the sent of the last days', async () => {
    await sql`
      insert into mail_outbox (kind, recipient, about, status, attempts, last_error)
      select 'test', 'donor@example.com', 'cli-page:' || i, 'failed', 5, 'SMTP 550'
      from generate_series(1, 12) i`.execute(t.db);
    await sql`
      insert into mail_outbox (kind, recipient, about, status, attempts, sent_at)
      values ('test', 'donor@example.com', 'cli-sent:1', 'sent', 1, ${t.clock.now()}),
             ('test', 'donor@example.com', 'cli-sent:2', 'sent', 1, ${t.clock.now()}::timestamptz - interval '40 days')`.execute(
      t.db,
    );
    const whole = await ok(run, 'receipts', 'outbox', '--status', 'failed', '--limit', '1000');
    expect(whole).toMatchObject({ counts: { failed: 12 }, sentRecently: { days: 7, count: 1 }, next: null });
    const walked: unknown[] = [];
    let page = await ok(run, 'receipts', 'outbox', '--status', 'failed', '--limit', '5');
    for (;;) {
      walked.push(...page.messages);
      if (page.next === null) break;
      page = await ok(run, 'receipts', 'outbox', '--status', 'failed', '--limit', '5', '--after', page.next);
    }
    expect(walked).toEqual(whole.messages);
    const human = await run('receipts', 'outbox', '--status', 'failed', '--limit', '5');
    expect(human.stdout).toMatch(/More: run again with --after \S+/);
    expect(human.stdout).toContain('Not sent: 0 pending, 0 held, 12 failed; 1 sent in the last 7 days.');
    const refused = await run('receipts', 'outbox', '--after', 'not-a-cursor');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('after: is not a cursor this list gave');
    noStack(refused.stderr);
  });
});

describe('bank lines and bank matches --after', () => {
  it('walks lines (all, and unmatched) and matches a page at a time, each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lists-cli-'));
    try {
      const path = join(dir, 'pages.xml');
      writeFileSync(
        path,
        camt053(
          Array.from({ length: 7 }, (_, i) => ({
            amount: `${i + 1}.00`,
            booked: dayOf(t, -i),
            bankRef: `PAGES-${i}`,
            ustrd: ['no reference'],
          })),
        ),
      );
      await ok(run, 'bank', 'import', path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const only of [[], ['--unmatched']]) {
      const whole = (await ok(run, 'bank', 'lines', ...only, '--limit', '1000')).lines as { id: number }[];
      expect(whole.length).toBeGreaterThanOrEqual(7);
      const walked: { id: number }[] = [];
      let page = (await ok(run, 'bank', 'lines', ...only, '--limit', '3')).lines as { id: number }[];
      while (page.length > 0) {
        walked.push(...page);
        const after = String(page.at(-1)!.id);
        page = (await ok(run, 'bank', 'lines', ...only, '--limit', '3', '--after', after)).lines;
      }
      expect(walked).toEqual(whole);
    }
    expect((await run('bank', 'lines', '--limit', '3')).stdout).toMatch(/More: run again with --after \d+/);
    const refused = await run('bank', 'lines', '--after', '999999999');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('after: there is no bank line 999999999.');
    noStack(refused.stderr);

    await sql`
      insert into bank_matches (method, rule, line_cents, entry_cents, decided_by)
      select 'confirmed', 'one_to_one', 100, 100, 'pager' from generate_series(1, 5)`.execute(t.db);
    const matches = (await ok(run, 'bank', 'matches', '--limit', '1000')).matches as { id: number }[];
    const first = (await ok(run, 'bank', 'matches', '--limit', '2')).matches as { id: number }[];
    const second = (await ok(run, 'bank', 'matches', '--limit', '2', '--after', String(first.at(-1)!.id))).matches as {
      id: number;
    }[];
    expect([...first, ...second]).toEqual(matches.slice(0, 4));
  });
});
