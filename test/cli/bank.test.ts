import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { camt053, dayOf, expectedBatch, fundsReceived, importTraces, unique } from '../bank-statements/support.js';
import { cli, ok, type Cli } from './harness.js';

/**
 * fundraiser-admin bank … (docs/bank-statements.md, docs/cli.md): import a camt.053 file and a CSV export with a
 * preset or a mapping file, list statements, unmatched lines and unpaid entries with their age, suggestions, confirm,
 * reject and unmatch, each decision audited; bad input is a clear message, never a stack trace.
 */
let t: TestApp;
let run: Cli;
let dir: string;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now, operator: 'finance@foundation.example' });
  dir = mkdtempSync(join(tmpdir(), 'bank-cli-'));
}, 180_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const audited = (action: string) => ok(run, 'audit', 'list', '--action', action);

describe('fundraiser-admin bank import', () => {
  it('imports a camt.053 file, matches what it can, and says so; the same file again adds nothing', async () => {
    const ref = unique('CLI-');
    const batchId = await expectedBatch(t, [{ ref, amount: '42.00' }]);
    const path = file(
      'stmt.xml',
      camt053([{ amount: '42.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: ref }]),
    );
    const human = await run('bank', 'import', path);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Matched automatically: 1;');
    expect(await fundsReceived(t, batchId)).toEqual([true]);
    const again = await ok(run, 'bank', 'import', path);
    expect(again).toMatchObject({ linesAdded: 0, alreadyImported: { by: 'finance@foundation.example' } });
    const [entry] = await audited('bank.import');
    expect(entry).toMatchObject({ actor: 'finance@foundation.example', action: 'bank.import' });
    const { statements } = await ok(run, 'bank', 'statements');
    expect(statements[0]).toMatchObject({ file: path, layout: 'camt.053', linesRead: 1, linesAdded: 1 });
  });

  it('imports CSV with --preset or --mapping, and refuses a CSV without either', async () => {
    const day = dayOf(t).split('-').reverse().join('/');
    const csv = file('anz.csv', `${day},5.55,"INTEREST"\n`);
    expect(await ok(run, 'bank', 'import', csv, '--preset', 'anz', '--account', 'ANZ 1')).toMatchObject({
      layout: 'anz',
      linesAdded: 1,
    });
    const mapping = file(
      'map.json',
      JSON.stringify({
        name: 'mine',
        header: false,
        dateFormat: 'DD/MM/YYYY',
        columns: { date: 1, amount: 2, description: [3] },
      }),
    );
    const other = file('other.csv', `${day},6.66,"OTHER"\n`);
    expect(await ok(run, 'bank', 'import', other, '--mapping', mapping)).toMatchObject({
      layout: 'mine',
      linesAdded: 1,
    });
    const refused = await run('bank', 'import', other);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not XML: a CSV statement needs --preset (commbank, westpac, anz, nab)');
    const unknownPreset = await run('bank', 'import', other, '--preset', 'bendigo');
    expect(unknownPreset.code).not.toBe(0);
    expect(unknownPreset.stderr).toContain('Allowed choices are commbank, westpac, anz, nab');
  });

  it('refuses a bad file whole with a table of lines and fields, and a missing file plainly', async () => {
    const bad = file('bad.csv', `01/01/2026,1.00,"OK"\n32/01/2026,1.00,"BAD"\n01/01/2026,abc,"BAD"\n`);
    const result = await run('bank', 'import', bad, '--preset', 'commbank');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Error: ${bad} was rejected: 2 problems found. Nothing was imported.`);
    expect(result.stderr).toMatch(/line 2 .*date .*must be a date as DD\/MM\/YYYY; got "32\/01\/2026"/);
    expect(result.stderr).toMatch(/line 3 .*amount .*got "abc"/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const json = await run('bank', 'import', bad, '--preset', 'commbank', '--json');
    expect(JSON.parse(json.stderr).error.problems).toHaveLength(2);
    const missing = await run('bank', 'import', join(dir, 'nope.xml'));
    expect(missing.stderr).toContain('no such file');
  });
});

describe('fundraiser-admin bank import of a statement of nothing', () => {
  it('refuses a camt.053 whose only entry is pending (Sts, or Sts/Cd) as a header-only CSV, storing nothing', async () => {
    const before = await importTraces(t);
    const header = file(
      'header.csv',
      'Date,Narrative,Debit Amount,Credit Amount,Balance,Categories,Serial,Bank Account\n',
    );
    const refusals = [await run('bank', 'import', header, '--preset', 'westpac')];
    for (const status of ['PDNG', '<Cd>PDNG</Cd>'])
      refusals.push(
        await run(
          'bank',
          'import',
          file(
            `only-pending-${status.length}.xml`,
            camt053([{ amount: '8.00', booked: dayOf(t), bankRef: unique('BK'), status }]),
          ),
        ),
      );
    for (const refused of refusals) {
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('was rejected: 1 problem found. Nothing was imported.');
      expect(refused.stderr).toMatch(/file .*\(file\) .*holds no bank lines/);
    }
    const json = await run('bank', 'import', join(dir, 'only-pending-4.xml'), '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr).error.problems).toEqual([
      { row: 'file', field: '(file)', message: 'holds no bank lines' },
    ]);
    expect(await importTraces(t)).toEqual(before);
    expect((await ok(run, 'bank', 'statements')).statements.map((s: { file: string }) => s.file)).not.toContain(
      join(dir, 'only-pending-4.xml'),
    );
  });
});

describe('fundraiser-admin bank lists and decisions', () => {
  it('lists unmatched lines and unpaid entries with their age, and open suggestions', async () => {
    const ref = unique('AGE-');
    const batchId = await expectedBatch(t, [{ ref, amount: '88.00' }]);
    file('age.xml', camt053([{ amount: '88.30', booked: dayOf(t), bankRef: unique('BK'), ustrd: [ref] }]));
    await ok(run, 'bank', 'import', join(dir, 'age.xml'));
    const later = cli({ database: t.database, now: () => new Date(t.clock.now().getTime() + 5 * DAY_MS) });
    const { lines } = await ok(later, 'bank', 'lines', '--unmatched');
    expect(lines.find((l: { amountCents: number }) => l.amountCents === 8_830)).toMatchObject({ ageDays: 5 });
    const { entries } = await ok(later, 'bank', 'unpaid');
    expect(entries.find((e: { batchId: string }) => e.batchId === batchId)).toMatchObject({
      bankReferenceId: ref,
      ageDays: 5,
    });
    // A line the bank dated ahead of today is 0 days old, not negative.
    file('ahead.xml', camt053([{ amount: '3.33', booked: dayOf(t, 2), bankRef: unique('BK'), ustrd: ['AHEAD'] }]));
    await ok(run, 'bank', 'import', join(dir, 'ahead.xml'));
    const now = (await ok(run, 'bank', 'lines', '--unmatched')).lines;
    expect(now.find((l: { amountCents: number }) => l.amountCents === 333)).toMatchObject({ ageDays: 0 });
    const table = await later('bank', 'unpaid');
    expect(table.stdout).toContain('Age (days)');
    const { suggestions } = await ok(run, 'bank', 'suggestions');
    expect(suggestions.find((s: { lineCents: number }) => s.lineCents === 8_830)).toMatchObject({
      rule: 'one_to_one',
      entries: [expect.objectContaining({ batchId, bankReferenceId: ref })],
    });
    expect((await run('bank', 'suggestions')).stdout).toContain('0.30 more than the entries');
  });

  it('lists unpaid entries a page at a time with --after, and refuses a cursor it did not give', async () => {
    await expectedBatch(t, [
      { ref: unique('PAGE-'), amount: '2.00' },
      { ref: unique('PAGE-'), amount: '3.00' },
      { ref: unique('PAGE-'), amount: '4.00' },
    ]);
    const whole = await ok(run, 'bank', 'unpaid', '--limit', '1000');
    expect(whole.next).toBeNull();
    const walked: unknown[] = [];
    let page = await ok(run, 'bank', 'unpaid', '--limit', '2');
    for (;;) {
      walked.push(...page.entries);
      if (page.next === null) break;
      page = await ok(run, 'bank', 'unpaid', '--limit', '2', '--after', page.next);
    }
    expect(walked).toEqual(whole.entries);
    const human = await run('bank', 'unpaid', '--limit', '1');
    expect(human.stdout).toMatch(/More: run again with --after \S+/);
    const refused = await run('bank', 'unpaid', '--after', 'not-a-cursor');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('after: is not a cursor this list gave');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('confirms, rejects and unmatches, each audited with the operator', async () => {
    const [a, b] = [unique('DEC-'), unique('DEC-')];
    const batchA = await expectedBatch(t, [{ ref: a, amount: '71.00' }]);
    await expectedBatch(t, [{ ref: b, amount: '33.00' }]);
    file(
      'dec.xml',
      camt053([
        { amount: '71.50', booked: dayOf(t), bankRef: unique('BK'), ustrd: [a] },
        { amount: '33.20', booked: dayOf(t), bankRef: unique('BK'), ustrd: [b] },
      ]),
    );
    await ok(run, 'bank', 'import', join(dir, 'dec.xml'));
    const { suggestions } = await ok(run, 'bank', 'suggestions');
    const toConfirm = suggestions.find((s: { lineCents: number }) => s.lineCents === 7_150);
    const toReject = suggestions.find((s: { lineCents: number }) => s.lineCents === 3_320);

    const confirmed = await run('bank', 'confirm', String(toConfirm.id));
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toMatch(new RegExp(`Suggestion ${toConfirm.id} confirmed as match \\d+`));
    expect(await fundsReceived(t, batchA)).toEqual([true]);
    const rejected = await ok(run, 'bank', 'reject', String(toReject.id), '--reason', 'not this donor');
    expect(rejected).toEqual({ suggestionId: toReject.id, status: 'rejected' });

    const { matches } = await ok(run, 'bank', 'matches');
    const match = matches.find((m: { method: string; lineCents: number }) => m.lineCents === 7_150);
    expect(match).toMatchObject({ method: 'confirmed', rule: 'one_to_one', unmatched: null });
    const noReason = await run('bank', 'unmatch', String(match.id));
    expect(noReason.code).not.toBe(0);
    expect(noReason.stderr).toContain("required option '--reason <text>' not specified");
    expect((await run('bank', 'unmatch', String(match.id), '--reason', 'wrong donor')).code).toBe(0);
    expect(await fundsReceived(t, batchA)).toEqual([false]);

    const actions = ['bank.confirm', 'bank.reject', 'bank.unmatch'];
    for (const action of actions) {
      const [latest] = await audited(action);
      expect(latest).toMatchObject({ actor: 'finance@foundation.example', action });
    }
    const again = await run('bank', 'confirm', String(toConfirm.id));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Error: (No suggestion|Suggestion \d+ was already confirmed)/);
    const bad = await run('bank', 'confirm', 'x1');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected a whole number');
  });
});
