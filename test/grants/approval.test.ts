import { createHash } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { parse } from 'csv-parse/sync';
import { GRANT_REGISTER_COLUMNS } from '../../src/services/grants/register-csv.js';
import { parseAba } from './aba-parser.js';
import { CLUB, settledDonations, tomorrow, verifiedDetails } from './support.js';

const ALICE = 'alice@example.org';
const BOB = 'bob@example.org';
const CAROL = 'carol@example.org';
const VICTOR = 'victor@example.org';

/** Review, four-eyes approval, the bank's file, paid once, cancel (docs/grants.md), through the CLI. */
describe('a grant round from draft to paid', () => {
  let t: TestApp;
  let run: Cli;
  let dir: string;
  const as = (operator: string, ...argv: string[]) => run(...argv, '--operator', operator);

  beforeAll(async () => {
    t = await startTestApp({ env: { GRANT_MINIMUM: '20.00' } });
    run = cli({ database: t.database });
    dir = await mkdtemp(join(tmpdir(), 'grants-'));
    for (const [email, role] of [
      [ALICE, 'admin'],
      [BOB, 'admin'],
      [CAROL, 'admin'],
      [VICTOR, 'viewer'],
    ] as const)
      await t.db.insertInto('console_operators').values({ email, role, password_hash: 'not-a-hash' }).execute();
    await verifiedDetails(t.db, CLUB.storefront, { bsb: '062-111', account: '11110001' });
    await verifiedDetails(t.db, CLUB.registration, { bsb: '083-004', account: '987654321' });
    await settledDonations(t, [30, 20.5]);
    await settledDonations(t, [45.25], 'registration');
  });
  afterAll(() => t.close());

  it('refuses what four eyes forbid, approves, makes one file and pays once', async () => {
    const drafted = await ok(run, 'grants', 'draft', '--cutoff', tomorrow(t), '--operator', ALICE);
    expect(drafted).toMatchObject({ number: 1, status: 'draft', totalCents: '9575', grantCount: 2, draftedBy: ALICE });

    const second = await as(BOB, 'grants', 'draft', '--cutoff', tomorrow(t));
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/Round 1 is an open draft \(drafted by alice@example\.org\)/);

    const shown = await ok(run, 'grants', 'show', '--round', '1');
    expect(shown.lines.map((l: { memberNumber: string; amountCents: string; account: string }) => l)).toEqual([
      expect.objectContaining({ memberNumber: CLUB.storefront, amountCents: '5050', account: '*****001' }),
      expect.objectContaining({ memberNumber: CLUB.registration, amountCents: '4525', account: '******321' }),
    ]);
    expect(shown.changes.map((c: { change: string }) => c.change)).toEqual(['new', 'new']);

    expect((await as(VICTOR, 'grants', 'review', '--round', '1')).stderr).toMatch(/only an active console admin/);
    expect((await as(BOB, 'grants', 'approve', '--round', '1')).stderr).toMatch(/has not been reviewed/);
    expect((await as(ALICE, 'grants', 'review', '--round', '1')).code).toBe(0);
    expect((await as(ALICE, 'grants', 'approve', '--round', '1')).stderr).toMatch(
      /alice@example\.org cannot approve round 1: they drafted it/,
    );
    // The database says so too, whatever the code does.
    await expect(sql`update grant_rounds set approved_by = drafted_by where number = 1`.execute(t.db)).rejects.toThrow(
      /check/,
    );

    const approved = await ok(run, 'grants', 'approve', '--round', '1', '--operator', BOB);
    expect(approved).toMatchObject({ status: 'approved', approvedBy: BOB, reviewedBy: ALICE });
    expect(approved.abaSha256).toMatch(/^[0-9a-f]{64}$/);

    // An approved round never changes.
    expect((await as(CAROL, 'grants', 'approve', '--round', '1')).stderr).toMatch(/approved: only a draft/);
    expect((await as(CAROL, 'grants', 'review', '--round', '1')).stderr).toMatch(/approved: only a draft/);
    expect((await as(CAROL, 'grants', 'cancel', '--round', '1', '--reason', 'x')).stderr).toMatch(
      /approved: only a draft/,
    );

    // The file, twice: the same bytes.
    const first = await ok(run, 'grants', 'aba', '--round', '1', '--out', join(dir, 'one.aba'));
    const again = await ok(run, 'grants', 'aba', '--round', '1', '--out', join(dir, 'two.aba'));
    const bytes = await readFile(first.file);
    expect(Buffer.compare(bytes, await readFile(again.file))).toBe(0);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(approved.abaSha256);
    expect(again.sha256).toBe(approved.abaSha256);
    expect((await run('grants', 'aba', '--round', '1', '--out', first.file)).stderr).toMatch(/the file exists/);

    const file = parseAba(bytes);
    expect(file.descriptive).toMatchObject({ reel: '01', bank: 'CBA', apcaUserId: '000000', description: 'GRANTS R1' });
    expect(file.details).toEqual([
      expect.objectContaining({
        bsb: '062-111',
        account: '11110001',
        transactionCode: '53',
        amountCents: 5050n,
        title: 'Club 10000001',
        reference: 'FG1-1',
        traceBsb: '062-000',
        traceAccount: '12345678',
        remitter: 'SPORTS FOUNDATN',
        withholdingCents: 0n,
      }),
      expect.objectContaining({ bsb: '083-004', account: '987654321', amountCents: 4525n, reference: 'FG1-2' }),
      // The balancing debit to the foundation's own account.
      expect.objectContaining({ bsb: '062-000', account: '12345678', transactionCode: '13', amountCents: 9575n }),
    ]);
    expect(file.total).toEqual({ netCents: 0n, creditCents: 9575n, debitCents: 9575n, count: 3 });

    const paid = await ok(run, 'grants', 'paid', '--round', '1', '--operator', CAROL);
    expect(paid).toMatchObject({ status: 'paid', paidBy: CAROL, grantsPaid: 2 });
    const twice = await as(CAROL, 'grants', 'paid', '--round', '1');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already marked paid by carol@example\.org/);
    const grants = await t.db.selectFrom('grants').select('status').execute();
    expect(grants.map((g) => g.status)).toEqual(['paid', 'paid']);
    const acquittals = await t.db.selectFrom('grant_acquittals').select('due_on').execute();
    expect(acquittals).toHaveLength(2);

    const actions = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor'])
      .where('action', 'like', 'grant.%')
      .execute();
    expect(actions.map((a) => `${a.action} ${a.actor}`)).toEqual([
      `grant.round_draft ${ALICE}`,
      `grant.round_review ${ALICE}`,
      `grant.round_approve ${BOB}`,
      `grant.aba_download test-operator`,
      `grant.aba_download test-operator`,
      `grant.round_paid ${CAROL}`,
    ]);
  });

  it('cancels a draft and frees its donations for the next round', async () => {
    await settledDonations(t, [25]);
    const draft = await ok(run, 'grants', 'draft', '--cutoff', tomorrow(t), '--operator', BOB);
    expect(draft).toMatchObject({ number: 2, totalCents: '2500' });
    expect((await as(BOB, 'grants', 'cancel', '--round', '2', '--reason', ' ')).stderr).toMatch(/--reason must say/);
    const cancelled = await ok(run, 'grants', 'cancel', '--round', '2', '--reason', 'wrong cut-off', '--operator', BOB);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBy: BOB, cancelReason: 'wrong cut-off' });
    const redraft = await ok(run, 'grants', 'draft', '--cutoff', tomorrow(t), '--operator', BOB);
    expect(redraft).toMatchObject({ number: 3, totalCents: '2500', grantCount: 1 });
    const lines = await t.db
      .selectFrom('grants')
      .select(['status', 'lodgement_reference'])
      .orderBy('lodgement_reference')
      .execute();
    expect(lines.filter((l) => l.status === 'cancelled').map((l) => l.lodgement_reference)).toEqual(['FG2-1']);
    const rounds = await ok(run, 'grants', 'rounds');
    expect(rounds.map((r: { number: number; status: string }) => `${r.number} ${r.status}`)).toEqual([
      '3 draft',
      '2 cancelled',
      '1 paid',
    ]);
    const show = await ok(run, 'grants', 'show', '--round', '3');
    expect(show.comparedWith).toBe(1);
    expect(show.changes).toEqual([
      expect.objectContaining({ memberNumber: CLUB.storefront, change: 'amount_changed' }),
      expect.objectContaining({ memberNumber: CLUB.registration, change: 'no_longer' }),
    ]);
  });

  it('writes the register for the auditor: one row per grant of rounds not cancelled', async () => {
    const file = join(dir, 'register.csv');
    expect(await ok(run, 'grants', 'register', '--out', file)).toEqual({ file });
    const text = await readFile(file, 'utf8');
    const records: string[][] = parse(text, {});
    const [header, ...rows] = records;
    expect(header).toEqual([...GRANT_REGISTER_COLUMNS]);
    const byRef = (ref: string) => Object.fromEntries(header!.map((h, i) => [h, rows.find((r) => r[15] === ref)![i]]));
    expect(rows.map((r) => `${r[0]} ${r[5]} ${r[7]} ${r[14]} ${r[15]}`)).toEqual([
      `1 ${CLUB.storefront} paid 50.50 FG1-1`,
      `1 ${CLUB.registration} paid 45.25 FG1-2`,
      `3 ${CLUB.storefront} payable 25.00 FG3-1`,
    ]);
    expect(byRef('FG1-2')).toMatchObject({
      roundStatus: 'paid',
      club: expect.any(String),
      status: 'paid',
      holdReason: '',
      donationCount: '1',
      donationsAud: '45.25',
      recoveredAud: '0.00',
      feeAud: '0.00',
      bsb: '083-004',
      account: '******321',
      paidAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      returnedAt: '',
    });
    expect(byRef('FG3-1')).toMatchObject({ roundStatus: 'draft', paidAt: '', approvedAt: '' });
    const none = join(dir, 'none.csv');
    await ok(run, 'grants', 'register', '--out', none, '--from', '2000-01-01', '--to', '2000-12-31');
    expect((await readFile(none, 'utf8')).trim().split('\r\n')).toHaveLength(1);
    expect((await run('grants', 'register', '--out', none)).stderr).toMatch(/the file exists/);
    expect((await run('grants', 'register', '--out', join(dir, 'x.csv'), '--from', '2026-13-01')).stderr).toMatch(
      /--from "2026-13-01" is not a date/,
    );
  });
});
