import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advicePolicy } from '../../src/services/grants/advice/issue.js';
import { AcquittalRemindersWorker } from '../../src/services/grants/acquittals/worker.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { noPaymentProvider } from '../webhooks/support.js';
import { paidRound, type PaidGrant } from './paid-grant-fixture.js';
import { grantWorkers } from './advice-support.js';

const OPERATOR = 'finance@foundation.example';

/**
 * Acquittals (docs/grants.md, "Acquittals"): opened with each paid grant, due ACQUITTAL_DUE_DAYS after payment (in
 * Sydney), reminded once ACQUITTAL_REMINDER_DAYS before, listed when overdue, and recorded by operators.
 */
describe('acquittals of paid grants', () => {
  let t: TestApp;
  let run: Cli;
  let reminders: AcquittalRemindersWorker;
  let grant: PaidGrant;
  let silent: PaidGrant;
  beforeAll(async () => {
    t = await startTestApp({ deps: { payments: noPaymentProvider } });
    run = cli({ database: t.database, now: t.clock.now, operator: OPERATOR });
    reminders = new AcquittalRemindersWorker(
      t.jobQueue,
      t.database,
      {
        reminders: { reminderDays: 14, timeZone: 'Australia/Sydney', foundation: 'Sample Sports Foundation Ltd' },
        advices: advicePolicy(t.config),
      },
      t.clock.now,
    );
    // Paid on 1 December 2026 in Sydney (30 November 23:00 UTC): due 90 days later, on 1 March 2027.
    const round = await paidRound(t, [
      {
        name: 'Acquitting Athletics',
        finance: ['books@athletics.test', 'chair@athletics.test'],
        donations: [{ cents: 10_000 }],
      },
      { name: 'Silent Swimming', donations: [{ cents: 5_000 }] },
    ]);
    [grant, silent] = [round.grants[0]!, round.grants[1]!];
    await grantWorkers(t).runAdvices();
  });
  afterAll(() => t?.close());

  const at = (iso: string) => (t.clock.current = new Date(iso));
  const reminderMessages = () =>
    t.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'grant-acquittal-reminder').orderBy('seq').execute();

  it('opens an acquittal per paid grant, due ACQUITTAL_DUE_DAYS after the day of payment', async () => {
    const rows = await t.db.selectFrom('grant_acquittals').selectAll().orderBy('due_on').execute();
    expect(rows.map((r) => [r.grant_id, r.due_on]).sort()).toEqual(
      [
        [grant.id, '2027-03-01'],
        [silent.id, '2027-03-01'],
      ].sort(),
    );
  });

  it('reminds the finance contacts once, ACQUITTAL_REMINDER_DAYS before the due day', async () => {
    at('2027-02-13T13:00:00Z'); // 14 February, 00:00 in Sydney: 15 days before
    expect((await reminders.run()).reminded).toBe(0);
    at('2027-02-14T13:00:00Z'); // 15 February in Sydney: 14 days before
    expect((await reminders.run()).reminded).toBe(1);
    expect((await reminders.run()).reminded).toBe(0);
    const messages = await reminderMessages();
    expect(messages.map((m) => m.recipient).sort()).toEqual(['books@athletics.test', 'chair@athletics.test']);
    expect(messages[0]!.subject).toBe(`Expenditure declaration due for grant ${grant.lodgementReference}`);
    expect(messages[0]!.text_body).toContain('1 March 2027');
    const row = await t.db
      .selectFrom('grant_acquittals')
      .selectAll()
      .where('grant_id', '=', grant.id)
      .executeTakeFirstOrThrow();
    expect(row.reminded_at).toEqual(new Date('2027-02-14T13:00:00Z'));
  });

  it('lists the open acquittals, and those overdue once their due day has passed', async () => {
    at('2027-03-01T12:00:00Z'); // 1 March, 23:00 in Sydney: due today, not overdue
    expect(await ok(run, 'grants', 'acquittals', '--overdue')).toEqual([]);
    const open = await ok(run, 'grants', 'acquittals');
    expect(open.map((a: { lodgementReference: string }) => a.lodgementReference).sort()).toEqual(
      [grant.lodgementReference, silent.lodgementReference].sort(),
    );
    at('2027-03-01T13:00:00Z'); // 2 March in Sydney
    const overdue = await ok(run, 'grants', 'acquittals', '--overdue');
    expect(overdue).toHaveLength(2);
    expect(overdue[0]).toMatchObject({ state: 'overdue', dueOn: '2027-03-01', grantCents: expect.any(Number) });
  });

  it('records a declaration once, refusing an amount over the grant, a bad date or an unknown grant', async () => {
    const record = (...extra: string[]) =>
      run(
        'grants',
        'acquittal-record',
        '--grant',
        grant.lodgementReference,
        '--declared-by',
        'Pat Treasurer',
        '--purpose',
        'Team uniforms and pool hire',
        ...extra,
      );
    const over = await record('--declared-on', '2027-03-01', '--spent', '100.01');
    expect(over.code).not.toBe(0);
    expect(over.stderr).toContain('--spent: $100.01 is more than the grant ($100.00)');
    const badDate = await record('--declared-on', '2027-02-30', '--spent', '80');
    expect(badDate.stderr).toContain('--declared-on: "2027-02-30" is not a date');
    const future = await record('--declared-on', '2027-04-01', '--spent', '80');
    expect(future.stderr).toContain('is in the future');
    const badAmount = await record('--declared-on', '2027-03-01', '--spent', '80.123');
    expect(badAmount.stderr).toContain('--spent: "80.123" is not an amount');
    const unknown = await run(
      'grants',
      'acquittal-record',
      '--grant',
      'NOPE',
      '--declared-by',
      'x',
      '--declared-on',
      '2027-03-01',
      '--spent',
      '1',
      '--purpose',
      'x',
    );
    expect(unknown.stderr).toContain('No acquittal for a grant with lodgement reference "NOPE"');

    const done = await record('--declared-on', '2027-03-01', '--spent', '$99.50', '--json');
    expect(done.code).toBe(0);
    expect(done.json()).toMatchObject({
      lodgementReference: grant.lodgementReference,
      spentCents: 9950,
      grantCents: 10_000,
    });
    const row = await t.db
      .selectFrom('grant_acquittals')
      .selectAll()
      .where('grant_id', '=', grant.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.amount_spent_cents)).toBe(9950);
    expect(row).toMatchObject({
      declared_by: 'Pat Treasurer',
      declared_on: '2027-03-01',
      purpose: 'Team uniforms and pool hire',
      recorded_by: OPERATOR,
    });
    const again = await record('--declared-on', '2027-03-01', '--spent', '10');
    expect(again.stderr).toContain('was recorded already (by finance@foundation.example)');
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'grant.acquittal_record')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: OPERATOR, subject: grant.lodgementReference });
    const overdue = await ok(run, 'grants', 'acquittals', '--overdue');
    expect(overdue.map((a: { lodgementReference: string }) => a.lodgementReference)).toEqual([
      silent.lodgementReference,
    ]);
  });

  it('issues a waiting advice at the daily run once its club has a finance contact', async () => {
    expect(
      (await t.db.selectFrom('grants').select('advised_at').where('id', '=', silent.id).executeTakeFirstOrThrow())
        .advised_at,
    ).toBeNull();
    const waiting = await ok(run, 'grants', 'advice', '--waiting');
    expect(waiting.map((w: { lodgementReference: string }) => w.lodgementReference)).toEqual([
      silent.lodgementReference,
    ]);
    await t.db
      .insertInto('club_contacts')
      .values({ account_id: silent.accountId, role: 'finance', name: 'New Treasurer', email: 'new@swimming.test' })
      .execute();
    const report = await reminders.run();
    expect(report.advised).toBe(1);
    // Its acquittal was overdue already and never reminded: the same run reminds it, once.
    expect(report.reminded).toBe(1);
    expect(await ok(run, 'grants', 'advice', '--waiting')).toEqual([]);
    expect(await reminders.run()).toEqual({ reminded: 0, advised: 0 });
  });
});
