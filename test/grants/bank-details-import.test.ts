import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { EXAMPLES, scratchFile } from './fixtures.js';

let t: TestApp;
let desk: Cli;
let verifier: Cli;
beforeAll(async () => {
  t = await startTestApp();
  desk = cli({ database: t.database, now: t.clock.now, operator: 'data-desk' });
  verifier = cli({ database: t.database, now: t.clock.now, operator: 'verifier' });
});
afterAll(async () => t.close());

const HEADER = 'memberNumber,name,bsb,accountNumber,accountName,gstRegistered';
const csv = (name: string, ...lines: string[]) => scratchFile(name, [HEADER, ...lines].join('\n'));
const versions = (memberNumber: string) =>
  t.db
    .selectFrom('club_bank_details as d')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['d.status', 'd.bsb', 'd.account_number', 'd.source', 'd.entered_by'])
    .where('a.member_number', '=', memberNumber)
    .orderBy('d.seq')
    .execute();

describe('accounts import: bank columns', () => {
  it('the example files make pending changes (source import) and set GST; the same file again changes nothing', async () => {
    await ok(desk, 'grants', 'bsb-import', join(EXAMPLES, 'bsb-directory.csv'));
    const dry = await ok(desk, 'accounts', 'import', join(EXAMPLES, 'accounts.csv'), '--dry-run');
    expect(dry).toMatchObject({ dryRun: true, bankChanges: 2 });
    expect(await versions('20000001')).toEqual([]);

    const first = await ok(desk, 'accounts', 'import', join(EXAMPLES, 'accounts.csv'));
    expect(first.bankChanges).toBe(2);
    expect(first.accounts.map((a: { bank?: string }) => a.bank)).toEqual(['pending', undefined, 'pending']);
    expect(await versions('20000001')).toEqual([
      { status: 'pending', bsb: '062-123', account_number: '10234567', source: 'import', entered_by: 'data-desk' },
    ]);
    const lakeside = await ok(desk, 'grants', 'bank-show', '--account', '20000001');
    expect(lakeside).toMatchObject({ gstRegistered: true, pending: { accountNumber: '•••••567' } });
    expect(lakeside.pending.branch).toContain('Sample Parramatta');

    const again = await ok(desk, 'accounts', 'import', join(EXAMPLES, 'accounts.json'));
    expect(again.bankChanges).toBe(0);
    expect(again.accounts.map((a: { bank?: string }) => a.bank)).toEqual(['unchanged', undefined, 'unchanged']);
    expect(await versions('20000003')).toHaveLength(1);
  });

  it('reports invalid details per row like other row errors, and writes nothing', async () => {
    const file = csv(
      'bad-bank.csv',
      '40000001,Row Two Club,999-999,12345678,Row Two Club,',
      '40000002,Row Three Club,062000,1234,Row Three Club,maybe',
      '40000003,Row Four Club,062-000,,,',
    );
    const result = await desk('accounts', 'import', file, '--json');
    expect(result.code).toBe(1);
    const problems = JSON.parse(result.stderr).error.problems as { row: string; field: string; message: string }[];
    expect(problems.map((p) => `${p.row} ${p.field}`)).toEqual([
      'line 2 bsb',
      'line 3 gstRegistered',
      'line 3 accountNumber',
      'line 4 accountNumber',
      'line 4 accountName',
    ]);
    expect(problems[0]!.message).toContain('BSB 999-999 is not in the BSB directory');
    expect(problems[3]!.message).toContain('bank details are the three fields together');
    expect(await t.db.selectFrom('accounts').select('id').where('member_number', 'like', '4000000%').execute()).toEqual(
      [],
    );
  });

  it('refuses other details while a change is pending; after verification, different details make a new one', async () => {
    const other = csv('other.csv', '20000001,Lakeside Junior Soccer Club,062-000,99999999,Lakeside JSC,');
    const refused = await desk('accounts', 'import', other, '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error.problems[0].message).toContain(
      'the club already has a pending bank change',
    );

    await ok(verifier, 'grants', 'bank-verify', '--account', '20000001', '--confirmation', 'Called Lee on file');
    const same = csv('same.csv', '20000001,Lakeside Junior Soccer Club,062-123,10234567,Lakeside Junior Soccer Club,');
    expect((await ok(desk, 'accounts', 'import', same)).bankChanges).toBe(0);
    const changed = await ok(desk, 'accounts', 'import', other);
    expect(changed.bankChanges).toBe(1);
    expect((await versions('20000001')).map((v) => `${v.status} ${v.account_number}`)).toEqual([
      'verified 10234567',
      'pending 99999999',
    ]);
    const audit = await ok(desk, 'audit', 'list', '--subject', '20000001', '--action', 'club.bank_details_set');
    expect(audit[0].details).toMatchObject({ source: 'import', account: 'ending 999' });
  });
});
