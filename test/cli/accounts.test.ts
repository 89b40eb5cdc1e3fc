import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { cli, ok, type Cli } from './harness.js';
import { checkEnrolment, ENROLMENT_CACHE_TTL_MS } from '../../src/services/enrolment.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');
const scratch = mkdtempSync(join(tmpdir(), 'fundraiser-import-'));

/** Writes an import file and returns its path. */
function file(name: string, content: string): string {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return path;
}

let t: TestApp;
let run: Cli;
beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now, operator: 'data-desk' });
});
afterAll(async () => t.close());

const countRows = async () => ({
  accounts: (await t.db.selectFrom('accounts').select('id').execute()).length,
  products: (await t.db.selectFrom('products').select('account_id').execute()).length,
  audit: (await t.db.selectFrom('audit_log').select('id').execute()).length,
});

const CSV_HEADER =
  'memberNumber,crmId,name,abn,channel,status,description,logo,coverImage,donationAmounts,story,campaigns,productEnrollmentId,enrollmentStatus';

describe('accounts import', () => {
  it('imports the example JSON file: accounts, products, amounts in cents, and the API serves them', async () => {
    const summary = await ok(run, 'accounts', 'import', join(EXAMPLES, 'accounts.json'));
    expect(summary).toMatchObject({ format: 'json', created: 3, updated: 0, products: 4, dryRun: false });

    const account = await t.db
      .selectFrom('accounts')
      .selectAll()
      .where('member_number', '=', '20000001')
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({
      crm_id: '0015g00000Exmp1AAA',
      name: 'Lakeside Junior Soccer Club',
      abn: '83245190006',
    });
    const products = await t.db
      .selectFrom('products')
      .selectAll()
      .where('account_id', '=', account.id)
      .orderBy('channel')
      .execute();
    // Number(): node-postgres hands bigint[] elements back as strings.
    expect(products.map((p) => [p.channel, p.status, p.donation_amounts_cents.map(Number)])).toEqual([
      ['Registration Integration', 'Activated', [250, 500, 1000]],
      ['Storefront App', 'Activated', [500, 1000, 2000, 5000]],
    ]);

    const response = await t.get('/accounts/20000001', { query: { channel: 'Storefront App' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.items).toMatchObject({
      name: 'Lakeside Junior Soccer Club',
      memberNumber: '20000001',
      abn: '83245190006',
      products: [
        {
          name: 'Storefront App',
          status: 'Activated',
          donationAmounts: [5, 10, 20, 50],
          coverImage: 'https://example.org/lakeside/cover.jpg',
        },
      ],
    });
    // The 15-character form of the CRM id finds the account too
    // (docs/decisions/0007-fundraiser-ids-member-number-or-crm-id.md).
    const byCrm = await t.get('/fundraisers', { query: { channel: 'Storefront App', id: '0015g00000Exmp1' } });
    expect(byCrm.json().data.items).toMatchObject({
      name: 'Lakeside Junior Soccer Club',
      productEnrollmentId: 'PE-20000001-SF',
      status: 'Enrollment Validated',
    });
    // Not activated → not enrolled.
    expect((await t.get('/fundraisers', { query: { channel: 'Storefront App', id: '20000003' } })).statusCode).toBe(
      400,
    );

    const [entry] = await ok(run, 'audit', 'list', '--action', 'accounts.import');
    expect(entry).toMatchObject({
      actor: 'data-desk',
      subject: 'accounts.json',
      details: { created: 3, products: 4, memberNumbers: ['20000001', '20000002', '20000003'] },
    });
  });

  it('the example CSV file holds the same data: importing it over the JSON import changes nothing but updates', async () => {
    const shownBefore = await Promise.all(
      ['20000001', '20000002', '20000003'].map((id) => ok(run, 'accounts', 'show', id)),
    );
    const summary = await ok(run, 'accounts', 'import', join(EXAMPLES, 'accounts.csv'));
    expect(summary).toMatchObject({ format: 'csv', created: 0, updated: 3, products: 4 });
    const shownAfter = await Promise.all(
      ['20000001', '20000002', '20000003'].map((id) => ok(run, 'accounts', 'show', id)),
    );
    expect(shownAfter).toEqual(shownBefore);
    expect(shownAfter[1].products[0].campaigns).toEqual({ courtsForAll: { title: 'Courts for All', goalAud: 25000 } });
    expect(shownAfter[1].products[0].story).toBe(
      'Our "Courts for All" appeal resurfaces four courts, lights included.',
    );
  });

  it('a CSV import on an empty database creates the accounts', async () => {
    const csv = file(
      'fresh.csv',
      `${CSV_HEADER}\n30000001,,Fresh Club,,Storefront App,Activated,,,,1;2.5,,,,\n30000001,,Fresh Club,,Registration Integration,Suspended,,,,,,,,\n`,
    );
    const summary = await ok(run, 'accounts', 'import', csv);
    expect(summary).toMatchObject({
      created: 1,
      products: 2,
      accounts: [
        { memberNumber: '30000001', action: 'created', channels: ['Storefront App', 'Registration Integration'] },
      ],
    });
    const shown = await ok(run, 'accounts', 'show', '30000001');
    expect(
      shown.products.map((p: { channel: string; status: string; donationAmounts: string[] }) => [
        p.channel,
        p.status,
        p.donationAmounts,
      ]),
    ).toEqual([
      ['Registration Integration', 'Suspended', []],
      ['Storefront App', 'Activated', ['1.00', '2.50']],
    ]);
  });

  it('upserts by member number: a re-import updates the account and its listed products, keeping the others', async () => {
    const json = file(
      'update.json',
      JSON.stringify({
        accounts: [
          {
            memberNumber: '20000001',
            crmId: '0015g00000Exmp1AAA',
            name: 'Lakeside JSC',
            products: [{ channel: 'Storefront App', status: 'Activated', donationAmounts: [7] }],
          },
        ],
      }),
    );
    const before = await countRows();
    expect(await ok(run, 'accounts', 'import', json)).toMatchObject({ created: 0, updated: 1 });
    expect(await countRows()).toEqual({ ...before, audit: before.audit + 1 });
    const shown = await ok(run, 'accounts', 'show', '20000001');
    expect(shown.name).toBe('Lakeside JSC');
    expect(shown.abn).toBeNull();
    expect(
      shown.products.map((p: { channel: string; donationAmounts: string[] }) => [p.channel, p.donationAmounts]),
    ).toEqual([
      ['Registration Integration', ['2.50', '5.00', '10.00']],
      ['Storefront App', ['7.00']],
    ]);
  });

  it('rejects a CSV file with bad rows as a whole, naming each bad row and field, and writes nothing', async () => {
    const csv = file(
      'bad.csv',
      [
        CSV_HEADER,
        '40000001,,Good Club,,Storefront App,Activated,,,,5;10,,,,',
        '40000002,,Bad Amounts,51824753557,Storefront App,activated,,ftp://logo,,5;ten;0,,{oops,,',
        '40000003,,Unknown Channel,,Storefront Ap,Activated,,,,,,,,',
        '40000001,,Good Club Renamed,,Registration Integration,Activated,,,,,,,,',
        '40000004,001SHORT,,,,,,,,,,,,',
        '40000005,,Too Few Cells',
      ].join('\n'),
    );
    const before = await countRows();
    const result = await run('accounts', 'import', csv, '--json');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr);
    expect(error.message).toBe(`${csv} was rejected: 11 problems found. Nothing was imported.`);
    const found = error.problems.map((p: { row: string; field: string }) => `${p.row} ${p.field}`);
    expect(found).toEqual([
      'line 3 logo',
      'line 3 abn',
      'line 3 campaigns',
      'line 3 status',
      'line 3 donationAmounts[1]',
      'line 3 donationAmounts[2]',
      'line 4 channel',
      'line 5 name',
      'line 6 name',
      'line 6 crmId',
      'line 7 (line)',
    ]);
    expect(error.problems[1]).toEqual({
      row: 'line 3',
      memberNumber: '40000002',
      field: 'abn',
      message: '"51824753557" fails the ABN checksum (mistyped digit?)',
    });
    expect(error.problems.find((p: { row: string }) => p.row === 'line 4').message).toContain(
      '"Storefront Ap" is not a known channel',
    );
    expect(await countRows()).toEqual(before);
    expect(
      await t.db.selectFrom('accounts').select('id').where('member_number', '=', '40000001').executeTakeFirst(),
    ).toBeUndefined();

    const human = await run('accounts', 'import', csv);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/^Error: .*bad\.csv was rejected: 11 problems found\. Nothing was imported\.\n/);
    expect(human.stderr).toMatch(/line 3 +│ 40000002 +│ donationAmounts\[1\] +│ "ten" is not a positive AUD amount/);
  });

  it('rejects a JSON file with bad records as a whole, naming each record and field, and writes nothing', async () => {
    const json = file(
      'bad.json',
      JSON.stringify([
        {
          memberNumber: '50000001',
          name: 'Fine',
          products: [{ channel: 'Storefront App', status: 'Activated', donationAmounts: [5] }],
        },
        {
          memberNumber: '50000002',
          name: 'Floaty',
          products: [{ channel: 'Storefront App', status: 'Activated', donationAmounts: [0.001, '12.345', 10] }],
        },
        {
          memberNumber: '50000003',
          name: 'Typo',
          products: [{ channel: 'Storefront App', status: 'Activated', coverimage: 'https://x' }],
        },
        { memberNumber: '50000001', name: 'Fine again' },
        { memberNumber: '50000004', name: 'Taken CRM id', crmId: '0015g00000Exmp1XYZ' },
        'not an account',
      ]),
    );
    const before = await countRows();
    const result = await run('accounts', 'import', json, '--json');
    expect(result.code).toBe(1);
    const { problems } = JSON.parse(result.stderr).error;
    expect(problems).toEqual([
      {
        row: 'record 2',
        memberNumber: '50000002',
        field: 'products[0].donationAmounts[0]',
        message: '0.001 is not a positive AUD amount with at most 2 decimals',
      },
      {
        row: 'record 2',
        memberNumber: '50000002',
        field: 'products[0].donationAmounts[1]',
        message: '"12.345" is not a positive AUD amount with at most 2 decimals',
      },
      { row: 'record 3', memberNumber: '50000003', field: 'products[0].coverimage', message: 'is not a known field' },
      {
        row: 'record 4',
        memberNumber: '50000001',
        field: 'memberNumber',
        message: '50000001 appears again (first on record 1); list each account once',
      },
      {
        row: 'record 5',
        memberNumber: '50000004',
        field: 'crmId',
        message: 'CRM id 0015g00000Exmp1… already belongs to member 20000001',
      },
      { row: 'record 6', field: '(record)', message: 'must be an account object with at least memberNumber and name' },
    ]);
    expect(await countRows()).toEqual(before);
  });

  it('a dry run reports what would change and writes nothing', async () => {
    const before = await countRows();
    const result = await run('accounts', 'import', join(EXAMPLES, 'accounts.json'), '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Dry run: nothing written. Would import 3 account(s)');
    expect(await countRows()).toEqual(before);
  });

  it('refuses unreadable input clearly', async () => {
    expect((await run('accounts', 'import', join(scratch, 'missing.json'))).stderr).toContain('no such file');
    expect((await run('accounts', 'import', file('accounts.txt', '[]'))).stderr).toContain(
      'pass --format json or --format csv',
    );
    const notJson = await run('accounts', 'import', file('broken.json', '{"accounts": ['));
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('is not valid JSON');
    const empty = await run('accounts', 'import', file('empty.json', '[]'));
    expect(empty.stderr).toContain('holds no accounts');
    const header = await run('accounts', 'import', file('header.csv', 'member,name\n1,x\n'));
    expect(header.stderr).toMatch(/line 1 .*member .*is not a known column/);
    // --format overrides the extension.
    expect(
      (
        await run(
          'accounts',
          'import',
          file('crm-export.txt', readFileSync(join(EXAMPLES, 'accounts.csv'), 'utf8')),
          '--format',
          'csv',
        )
      ).code,
    ).toBe(0);
  });
});

describe('accounts list, show, set-product-status', () => {
  it('lists and searches accounts with their product statuses', async () => {
    const all = await ok(run, 'accounts', 'list');
    expect(all.map((a: { memberNumber: string }) => a.memberNumber)).toEqual(
      expect.arrayContaining(['10000001', '20000001', '20000003']),
    );
    const found = await ok(run, 'accounts', 'list', '--search', 'bayside');
    expect(found).toEqual([
      expect.objectContaining({
        memberNumber: '20000003',
        products: [{ channel: 'Storefront App', status: 'Pending Activation' }],
      }),
    ]);
    const table = await run('accounts', 'list', '--channel', 'Registration Integration');
    expect(table.stdout).toContain('Mountain View Netball Association');
    expect(table.stdout).not.toContain('Bayside');
  });

  it('shows an account by member number or CRM id, and 404-style errors for unknown ids', async () => {
    expect((await ok(run, 'accounts', 'show', '0015g00000Exmp1AAA')).memberNumber).toBe('20000001');
    const missing = await run('accounts', 'show', '99999999');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Error: No account with member number or CRM id "99999999".\n');
  });

  it("changes a product's status, which the API honours (activation at once, deactivation within the enrolment cache's bound), and audits it", async () => {
    const query = { channel: 'Storefront App', id: '20000003' };
    expect((await t.get('/fundraisers', { query })).statusCode).toBe(400);
    await ok(
      run,
      'accounts',
      'set-product-status',
      '20000003',
      '--channel',
      'Storefront App',
      '--status',
      'Activated',
      '--enrollment-status',
      'Enrollment Validated',
    );
    const enrolled = await t.get('/fundraisers', { query });
    expect(enrolled.statusCode).toBe(200);
    expect(enrolled.json().data.items.status).toBe('Enrollment Validated');

    await ok(run, 'accounts', 'set-product-status', '20000003', '--channel', 'Storefront App', '--status', 'Suspended');
    // The API may serve the enrolment it confirmed a moment ago for up to ENROLMENT_CACHE_TTL_MS (bounded
    // staleness); the look-up it makes after that sees the suspension.
    expect(ENROLMENT_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
    expect(await checkEnrolment(t.db, '20000003', 'Storefront App')).toMatchObject({
      enrolled: false,
      reason: expect.stringContaining('not activated (status Suspended)'),
    });
    const [entry] = await ok(run, 'audit', 'list', '--subject', '20000003');
    expect(entry).toMatchObject({
      action: 'product.status',
      actor: 'data-desk',
      details: { channel: 'Storefront App', status: { from: 'Activated', to: 'Suspended' } },
    });

    const wrongCase = await run(
      'accounts',
      'set-product-status',
      '20000003',
      '--channel',
      'Storefront App',
      '--status',
      'activated',
    );
    expect(wrongCase.code).toBe(1);
    expect(wrongCase.stderr).toContain('Write "Activated" exactly');
    const noProduct = await run(
      'accounts',
      'set-product-status',
      '20000003',
      '--channel',
      'Registration Integration',
      '--status',
      'Activated',
    );
    expect(noProduct.stderr).toContain('has no product for channel "Registration Integration"');
  });
});
