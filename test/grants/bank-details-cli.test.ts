import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { createClubs, DAY, EXAMPLES, scratchFile, testClock } from './fixtures.js';
import { join } from 'node:path';
import { setBankDetails } from '../../src/services/grants/bank-details/enter.js';
import { ConflictError } from '../../src/services/operators/operator-errors.js';

let t: TestApp;
let database: TestApp['database'];
const clock = testClock('2026-12-01T00:00:00Z');
let alice: Cli;
let bob: Cli;
let carol: Cli;
beforeAll(async () => {
  t = await startTestApp();
  database = t.database;
  alice = cli({ database, now: clock.now, operator: 'alice' });
  bob = cli({ database, now: clock.now, operator: 'bob' });
  carol = cli({ database, now: clock.now, operator: 'carol' });
  await createClubs(alice, [
    ['30000001', 'Format Club'],
    ['30000002', 'Four Eyes Club'],
    ['30000003', 'Hold Club'],
    ['30000004', 'Contacts Club'],
    ['30000005', 'Directory Club'],
  ]);
});
afterAll(async () => t.close());

const set = (run: Cli, account: string, bsb: string, number: string, name: string) =>
  run('grants', 'bank-set', '--account', account, '--bsb', bsb, '--number', number, '--name', name, '--json');
const errorOf = (result: { stderr: string }) => JSON.parse(result.stderr).error.message as string;
const auditOf = (run: Cli, account: string) =>
  ok<{ action: string; actor: string; details: Record<string, unknown> }[]>(run, 'audit', 'list', '--subject', account);

describe('bank details: format checks (no directory imported)', () => {
  it('refuses a bad BSB, account number or name, naming each; normalises what it accepts', async () => {
    const bad = await set(alice, '30000001', '12-345', '12 34', 'Ñandú Club');
    expect(bad.code).toBe(1);
    const message = errorOf(bad);
    expect(message).toContain('BSB "12-345" must be six digits written NNN-NNN');
    expect(message).toContain('account number must be 5 to 9 digits');
    expect(message).toContain('account name must be 1 to 32 printable characters');
    const tooLong = await set(alice, '30000001', '062-000', '12345678', 'x'.repeat(33));
    expect(errorOf(tooLong)).toContain('account name must be 1 to 32');

    const entered = await set(alice, '30000001', '062000', '12 345-678', '  Format Club Inc  ');
    expect(entered.code).toBe(0);
    const { details } = entered.json();
    expect(details).toMatchObject({
      status: 'pending',
      bsb: '062-000',
      accountNumber: '•••••678',
      masked: true,
      accountName: 'Format Club Inc',
      branch: null,
    });
    const stored = await database.db
      .selectFrom('club_bank_details')
      .select(['account_number', 'source', 'entered_by'])
      .where('id', '=', details.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ account_number: '12345678', source: 'cli', entered_by: 'alice' });
  });

  it('refuses an unknown club', async () => {
    const result = await set(alice, 'NOPE', '062-000', '12345678', 'X');
    expect(errorOf(result)).toContain('No fundraiser account with member number or CRM id "NOPE"');
  });
});

describe('bank details: one pending change, four eyes, supersede', () => {
  it('refuses a second pending change while one waits', async () => {
    expect((await set(alice, '30000002', '062-000', '11111111', 'Four Eyes Club')).code).toBe(0);
    const second = await set(bob, '30000002', '062-000', '22222222', 'Four Eyes Club');
    expect(second.code).toBe(1);
    expect(errorOf(second)).toMatch(/30000002 already has a pending bank change \(entered .* by alice\)/);
  });

  it('refuses the enterer verifying or rejecting their own change, in the service and in SQL', async () => {
    const verify = await alice(
      'grants',
      'bank-verify',
      '--account',
      '30000002',
      '--confirmation',
      'Called the treasurer on the number on file',
      '--json',
    );
    expect(verify.code).toBe(1);
    expect(errorOf(verify)).toContain('alice entered this bank change and cannot verify a change they entered');
    const reject = await alice('grants', 'bank-reject', '--account', '30000002', '--reason', 'mine', '--json');
    expect(errorOf(reject)).toContain('cannot reject a change they entered');
    // Even a statement that skipped the service is refused by the table's check.
    await expect(
      database.db
        .updateTable('club_bank_details')
        .set({ status: 'verified', verified_by: 'alice', verified_at: new Date(), confirmation: 'x' })
        .where('entered_by', '=', 'alice')
        .where('status', '=', 'pending')
        .execute(),
    ).rejects.toThrow(/check/);
    const pending = await ok(alice, 'grants', 'bank-pending');
    expect(pending.find((p: { memberNumber: string }) => p.memberNumber === '30000002').pending.status).toBe('pending');
  });

  it('a second operator verifies; a later verified change supersedes it', async () => {
    const missing = await bob('grants', 'bank-verify', '--account', '30000002', '--confirmation', ' ', '--json');
    expect(errorOf(missing)).toContain('whom you called');
    const first = await ok(
      bob,
      'grants',
      'bank-verify',
      '--account',
      '30000002',
      '--confirmation',
      'Called Pat (treasurer) on 02 9999 0000, on file',
    );
    expect(first.details).toMatchObject({ status: 'verified', verifiedBy: 'bob', holdWaived: false });
    expect(first.superseded).toBeNull();

    await ok(
      alice,
      'grants',
      'bank-set',
      '--account',
      '30000002',
      '--bsb',
      '062-000',
      '--number',
      '33333333',
      '--name',
      'FEC',
    );
    const rejectEmpty = await bob('grants', 'bank-reject', '--account', '30000002', '--reason', '', '--json');
    expect(errorOf(rejectEmpty)).toContain('Give the reason');
    const second = await ok(
      carol,
      'grants',
      'bank-verify',
      '--account',
      '30000002',
      '--confirmation',
      'Called Pat on the number on file',
    );
    expect(second.superseded).toMatchObject({ id: first.details.id, status: 'superseded' });
    const view = await ok(bob, 'grants', 'bank-show', '--account', '30000002');
    expect(view.current.id).toBe(second.details.id);
    expect(view.history.map((v: { status: string }) => v.status)).toEqual(['verified', 'superseded']);

    await ok(
      bob,
      'grants',
      'bank-set',
      '--account',
      '30000002',
      '--bsb',
      '062-000',
      '--number',
      '44444444',
      '--name',
      'FEC',
    );
    const rejected = await ok(alice, 'grants', 'bank-reject', '--account', '30000002', '--reason', 'club denies it');
    expect(rejected.details).toMatchObject({ status: 'rejected', rejectedBy: 'alice', rejectReason: 'club denies it' });
    const after = await ok(bob, 'grants', 'bank-show', '--account', '30000002');
    expect(after.current.id).toBe(second.details.id);
    expect(after.pending).toBeNull();
    const actions = (await auditOf(bob, '30000002')).map((a) => a.action);
    expect(actions.filter((a) => a === 'club.bank_details_set')).toHaveLength(3);
    expect(actions.filter((a) => a === 'club.bank_details_verify')).toHaveLength(2);
    expect(actions.filter((a) => a === 'club.bank_details_reject')).toHaveLength(1);
  });
});

describe('bank details: changes entered at once', () => {
  it('keeps one pending change when two operators enter details for the same club at the same moment', async () => {
    await createClubs(alice, [['30000006', 'Race Club']]);
    const settings = { holdDays: 7, timeZone: 'Australia/Sydney' };
    const attempts = await Promise.allSettled(
      ['alice', 'bob'].map((operator, i) =>
        setBankDetails(
          { db: database.db, operator, now: clock.now },
          settings,
          '30000006',
          { bsb: '062-000', accountNumber: `7000000${i}`, accountName: 'Race Club' },
          'cli',
        ),
      ),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = attempts.find((a) => a.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ConflictError);
    expect((refused.reason as Error).message).toContain('30000006 already has a pending bank change');
    const pending = await database.db
      .selectFrom('club_bank_details')
      .innerJoin('accounts', 'accounts.id', 'club_bank_details.account_id')
      .select('status')
      .where('member_number', '=', '30000006')
      .execute();
    expect(pending).toEqual([{ status: 'pending' }]);
  });
});

describe('bank details: the hold period', () => {
  it('is payable from entry plus GRANT_BANK_CHANGE_HOLD_DAYS (7), not a day before; a waived hold at once', async () => {
    clock.set('2026-12-01T00:00:00Z');
    const entered = clock.now().getTime();
    await ok(
      alice,
      'grants',
      'bank-set',
      '--account',
      '30000003',
      '--bsb',
      '062-000',
      '--number',
      '5550001',
      '--name',
      'Hold Club',
    );
    clock.set(new Date(entered + 2 * DAY));
    await ok(bob, 'grants', 'bank-verify', '--account', '30000003', '--confirmation', 'Called Sam on file number');
    const payableFrom = new Date(entered + 7 * DAY).toISOString();

    clock.set(new Date(entered + 6 * DAY));
    const before = await ok(bob, 'grants', 'bank-show', '--account', '30000003');
    expect(before.current).toMatchObject({ payableNow: false, payableFrom });
    expect(before.current.payable).toBe(`payable from ${payableFrom.replace('.000', '')} (in its hold period)`);
    const text = await bob('grants', 'bank-show', '--account', '30000003');
    expect(text.stdout).toContain(`payable from ${payableFrom.replace('.000', '')}`);

    clock.set(new Date(entered + 7 * DAY - 1));
    expect((await ok(bob, 'grants', 'bank-show', '--account', '30000003')).current.payableNow).toBe(false);
    clock.set(new Date(entered + 7 * DAY));
    expect((await ok(bob, 'grants', 'bank-show', '--account', '30000003')).current.payableNow).toBe(true);
    clock.set(new Date(entered + 8 * DAY));
    expect((await ok(bob, 'grants', 'bank-show', '--account', '30000003')).current.payableNow).toBe(true);

    await ok(
      alice,
      'grants',
      'bank-set',
      '--account',
      '30000003',
      '--bsb',
      '062-000',
      '--number',
      '5550002',
      '--name',
      'Hold Club',
    );
    const waived = await ok(
      bob,
      'grants',
      'bank-verify',
      '--account',
      '30000003',
      '--confirmation',
      'Called Sam on file number',
      '--waive-hold',
    );
    expect(waived.details).toMatchObject({ holdWaived: true, payableNow: true });
    clock.set('2026-12-01T00:00:00Z');
  });
});

describe('bank details: masking and audited views', () => {
  it('masks account numbers unless --unmask, and audits each unmasked view', async () => {
    const masked = await ok(bob, 'grants', 'bank-show', '--account', '30000003');
    expect(masked.current.accountNumber).toBe('••••002');
    expect(JSON.stringify(masked)).not.toContain('5550002');
    const viewsBefore = (await auditOf(bob, '30000003')).filter((a) => a.action === 'club.bank_details_view');
    expect(viewsBefore).toHaveLength(0);

    const unmasked = await ok(carol, 'grants', 'bank-show', '--account', '30000003', '--unmask');
    expect(unmasked.current).toMatchObject({ accountNumber: '5550002', masked: false });
    const pendingList = await ok(carol, 'grants', 'bank-pending', '--unmask');
    expect(pendingList.length).toBeGreaterThan(0);
    const views = (await auditOf(bob, '30000003')).filter((a) => a.action === 'club.bank_details_view');
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ actor: 'carol', details: { via: 'cli' } });
    const pendingViews = (await auditOf(bob, '30000001')).filter((a) => a.action === 'club.bank_details_view');
    expect(pendingViews).toHaveLength(1);
  });
});

describe('club contacts, GST and the mail of a change', () => {
  it('adds, lists and removes contacts, audited; records GST', async () => {
    const finance = await ok(
      alice,
      'grants',
      'club-contact-add',
      '--account',
      '30000004',
      '--role',
      'finance',
      '--name',
      'Fran Finance',
      '--email',
      'fran@club.example',
    );
    await ok(
      alice,
      'grants',
      'club-contact-add',
      '--account',
      '30000004',
      '--role',
      'primary',
      '--name',
      'Pat',
      '--email',
      'pat@club.example',
    );
    const temp = await ok(
      alice,
      'grants',
      'club-contact-add',
      '--account',
      '30000004',
      '--role',
      'primary',
      '--name',
      'Tem',
      '--email',
      'tem@club.example',
    );
    const bad = await alice(
      'grants',
      'club-contact-add',
      '--account',
      '30000004',
      '--role',
      'primary',
      '--name',
      'X',
      '--email',
      'nope',
      '--json',
    );
    expect(errorOf(bad)).toContain('email must be an e-mail address');
    await ok(alice, 'grants', 'club-contact-remove', '--account', '30000004', temp.id);
    const missing = await alice('grants', 'club-contact-remove', '--account', '30000004', 'not-an-id', '--json');
    expect(errorOf(missing)).toContain('has no contact "not-an-id"');
    const contacts = await ok(alice, 'grants', 'club-contacts', '--account', '30000004');
    expect(contacts.map((c: { email: string }) => c.email)).toEqual(['fran@club.example', 'pat@club.example']);
    expect(contacts[0].id).toBe(finance.id);

    expect(await ok(alice, 'grants', 'club-gst', '--account', '30000004', '--registered', 'yes')).toMatchObject({
      gstRegistered: true,
      changed: true,
    });
    expect((await ok(alice, 'grants', 'bank-show', '--account', '30000004')).gstRegistered).toBe(true);
    const actions = (await auditOf(alice, '30000004')).map((a) => a.action);
    expect(actions.filter((a) => a === 'club.contact_add')).toHaveLength(3);
    expect(actions).toEqual(expect.arrayContaining(['club.contact_remove', 'club.gst']));
  });

  it('tells every contact on file before the change through the outbox, masked', async () => {
    const entered = await ok(
      alice,
      'grants',
      'bank-set',
      '--account',
      '30000004',
      '--bsb',
      '062-000',
      '--number',
      '98765432',
      '--name',
      'Contacts Club',
    );
    expect(entered.told).toEqual(['fran@club.example', 'pat@club.example']);
    const mail = await database.db
      .selectFrom('mail_outbox')
      .select(['recipient', 'subject', 'text_body', 'about'])
      .where('kind', '=', 'club-bank-change')
      .where('about', '=', `club-bank-details:${entered.details.id}`)
      .orderBy('recipient')
      .execute();
    expect(mail.map((m) => m.recipient)).toEqual(['fran@club.example', 'pat@club.example']);
    expect(mail[0]!.subject).toBe('New bank details were entered for Contacts Club');
    expect(mail[0]!.text_body).toContain('Account number: •••••432');
    expect(mail[0]!.text_body).toContain('If your club did not ask for this change, call the foundation');
    expect(mail[0]!.text_body).toContain('entered with the foundation on 1 Dec 2026, 11:00 am AEDT');
    expect(mail[0]!.text_body).not.toContain('98765432');
  });

  it('says so when the club has no contacts, in the output and the audit entry', async () => {
    const result = await alice(
      'grants',
      'bank-set',
      '--account',
      '30000005',
      '--bsb',
      '062-000',
      '--number',
      '123456',
      '--name',
      'Dir Club',
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The club has no contacts on file: nobody was told of the change');
    const set = (await auditOf(alice, '30000005')).find((a) => a.action === 'club.bank_details_set')!;
    expect(set.details).toMatchObject({ contactsTold: 0, account: 'ending 456' });
    expect(set.details.noContacts).toContain('nobody was told');
    expect(JSON.stringify(set.details)).not.toContain('123456');
    await ok(bob, 'grants', 'bank-reject', '--account', '30000005', '--reason', 'test over');
  });
});

describe('the BSB directory', () => {
  it('refuses a file with no valid line and leaves the directory as it was', async () => {
    const result = await alice(
      'grants',
      'bsb-import',
      scratchFile('empty.csv', 'hello,world\n"12-34","CBA","X"\n'),
      '--json',
    );
    expect(result.code).toBe(1);
    expect(errorOf(result)).toContain('holds no valid BSB line');
    expect(errorOf(result)).toContain('line 2 "12-34" is not a BSB');
    expect(await database.db.selectFrom('bsb_directory').select('bsb').execute()).toEqual([]);
  });

  it('imports the example file whole, then checks BSBs against it and names the branch', async () => {
    const imported = await ok(alice, 'grants', 'bsb-import', join(EXAMPLES, 'bsb-directory.csv'));
    expect(imported).toMatchObject({ imported: 8, replaced: 0, skipped: [] });

    const unknown = await set(alice, '30000005', '999-999', '123456', 'Dir Club');
    expect(errorOf(unknown)).toContain('BSB 999-999 is not in the BSB directory');
    const entered = await ok(
      alice,
      'grants',
      'bank-set',
      '--account',
      '30000005',
      '--bsb',
      '083004',
      '--number',
      '123456',
      '--name',
      'Dir Club',
    );
    expect(entered.details.branch).toBe('NAB Sample Mountain View, Mountain View QLD');
    const text = await bob('grants', 'bank-show', '--account', '30000005');
    expect(text.stdout).toContain('083-004 (NAB Sample Mountain View, Mountain View QLD)');
  });

  it('replaces the directory whole, reporting skipped lines by number, audited with counts', async () => {
    const file = scratchFile(
      'bsb.csv',
      [
        'BSB,Bank code,Branch name,Address,Suburb,State,Postcode,Payments flags',
        '083-004,NAB,Sample Mountain View,5 Hill Street,Mountain View,QLD,4000,PEH',
        '"083-004","NAB","Again","","","","",""',
        'not a line',
        '"062-000","CBA","Sample Sydney Branch","1 Example Street","Sydney","NSW","2000","PEH"',
        '',
        '123456,WBC,No dash,,,,,',
      ].join('\r\n'),
    );
    const result = await ok(alice, 'grants', 'bsb-import', file);
    expect(result).toMatchObject({ imported: 3, replaced: 8 });
    expect(result.skipped.map((s: { line: number }) => s.line)).toEqual([3, 4]);
    expect(result.skipped[0].reason).toContain('listed again (first on line 2)');
    const bsbs = await database.db.selectFrom('bsb_directory').select('bsb').orderBy('bsb').execute();
    expect(bsbs.map((b) => b.bsb)).toEqual(['062-000', '083-004', '123-456']);
    const entry = (await ok(alice, 'audit', 'list', '--action', 'club.bsb_import'))[0];
    expect(entry.details).toMatchObject({ imported: 3, replaced: 8, skipped: 2, skippedLines: [3, 4] });
  });
});
