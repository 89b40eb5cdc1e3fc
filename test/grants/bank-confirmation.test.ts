import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markRoundPaid } from '../../src/services/grants/rounds/paid.js';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { cli, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { dayOf, operatorOf, settingsOf } from '../bank-statements/support.js';
import { accountIdOf, CLUB, draft, linesOf, markApproved, settledDonations, verifiedDetails } from './support.js';

/** The foundation's statement confirms rounds and grants paid, and shows grants returned (docs/grants.md). */
describe('grant payments seen on the bank statement', () => {
  let t: TestApp;
  let run: Cli;
  const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
  let files = 0;
  const importCsv = (rows: [amount: string, description: string][]) =>
    importStatement(operatorOf(t), settingsOf(t), {
      fileName: `statement-${(files += 1)}.csv`,
      content: rows.map(([amount, text]) => `${ddmmyyyy(dayOf(t))},${amount},"${text}",+1000.00`).join('\n'),
      preset: 'commbank',
      account: '062000 12345678',
    });

  async function paidRound() {
    const { round } = await draft(t);
    await markApproved(t.db, round.id);
    await markRoundPaid(operatorOf(t, 'payer@example.org'), round.number, {
      acquittalDueDays: 90,
      timeZone: t.config.FOUNDATION_TIME_ZONE,
    });
    return { round, lines: await linesOf(t.db, round.id) };
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { GRANT_MINIMUM: '20.00' } });
    run = cli({ database: t.database });
    await verifiedDetails(t.db, CLUB.storefront);
    await verifiedDetails(t.db, CLUB.registration);
    const storefront = await accountIdOf(t.db, CLUB.storefront);
    await t.db
      .insertInto('club_contacts')
      .values([
        { account_id: storefront, role: 'finance', name: 'Fin', email: 'finance@club.example' },
        { account_id: storefront, role: 'primary', name: 'Pri', email: 'president@club.example' },
      ])
      .execute();
  });
  afterAll(() => t.close());

  it("confirms a round by the file's total", async () => {
    await settledDonations(t, [30, 20.5]);
    await settledDonations(t, [45.25], 'registration');
    const { round } = await paidRound();
    // Another amount, and the total as money in: neither confirms it.
    const unrelated = await importCsv([
      ['-95.74', 'DIRECT ENTRY GRANTS'],
      ['+95.75', 'SOMETHING ELSE'],
    ]);
    expect(unrelated.grantPayments).toEqual({ roundsConfirmed: 0, grantsConfirmed: 0, grantsReturned: 0 });
    const result = await importCsv([['-95.75', 'DIRECT ENTRY GRANTS R1']]);
    expect(result.grantPayments).toEqual({ roundsConfirmed: 1, grantsConfirmed: 0, grantsReturned: 0 });
    const confirmed = await t.db
      .selectFrom('grant_rounds')
      .select(['bank_line_id', 'bank_confirmed_at'])
      .where('id', '=', round.id)
      .executeTakeFirstOrThrow();
    expect(confirmed.bank_line_id).not.toBeNull();
    expect(confirmed.bank_confirmed_at).not.toBeNull();
    // The same total again confirms nothing more.
    expect((await importCsv([['-95.75', 'DIRECT ENTRY GRANTS R1 AGAIN']])).grantPayments).toMatchObject({
      roundsConfirmed: 0,
    });
  });

  it('confirms each grant by its amount and lodgement reference', async () => {
    await settledDonations(t, [40]);
    await settledDonations(t, [60], 'registration');
    const { lines } = await paidRound();
    const [a, b] = [lines[CLUB.storefront]!, lines[CLUB.registration]!];
    const result = await importCsv([
      ['-40.00', `GRANT ${a.lodgement_reference} CLUB`],
      ['-59.00', `GRANT ${b.lodgement_reference} WRONG AMOUNT`],
      ['-60.00', `GRANT ${b.lodgement_reference}`],
    ]);
    expect(result.grantPayments).toEqual({ roundsConfirmed: 0, grantsConfirmed: 2, grantsReturned: 0 });
    const confirmed = await t.db
      .selectFrom('grants')
      .select('lodgement_reference')
      .where('bank_line_id', 'is not', null)
      .orderBy('lodgement_reference')
      .execute();
    expect(confirmed.map((g) => g.lodgement_reference)).toEqual([a.lodgement_reference, b.lodgement_reference]);
  });

  it('a returned payment marks the grant returned, tells the club, holds it and pays it again later', async () => {
    const first = await t.db
      .selectFrom('grants')
      .selectAll()
      .where('lodgement_reference', '=', 'FG1-1')
      .executeTakeFirstOrThrow();
    const result = await importCsv([['+50.50', 'DE RETURN FG1-1 ACCOUNT CLOSED']]);
    expect(result.grantPayments).toEqual({ roundsConfirmed: 0, grantsConfirmed: 0, grantsReturned: 1 });
    const returned = await t.db.selectFrom('grants').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(returned).toMatchObject({ status: 'returned', return_reason: 'returned by the bank' });
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['kind', 'recipient', 'subject', 'about'])
      .where('kind', '=', 'grant-returned')
      .orderBy('recipient')
      .execute();
    expect(mail).toEqual([
      expect.objectContaining({ recipient: 'finance@club.example', about: 'grant:FG1-1' }),
      expect.objectContaining({ recipient: 'president@club.example', about: 'grant:FG1-1' }),
    ]);
    expect(mail[0]!.subject).toMatch(/FG1-1 was returned/);

    // An operator records another return; twice is refused.
    const byOperator = await run('grants', 'return', '--grant', 'fg2-2', '--reason', 'account closed', '--json');
    expect(byOperator.code).toBe(0);
    expect(byOperator.json()).toMatchObject({ lodgementReference: 'FG2-2', amountCents: '6000' });
    const again = await run('grants', 'return', '--grant', 'FG2-2', '--reason', 'account closed');
    expect(again.stderr).toMatch(/Grant FG2-2 is returned: only a paid grant is returned/);

    // The next round holds the storefront club (no newer details) with the returned amount to reissue.
    const { round } = await draft(t);
    const next = await linesOf(t.db, round.id);
    expect(next[CLUB.storefront]).toMatchObject({
      status: 'held',
      hold_reason: 'payment_returned',
      reissued_cents: '5050',
    });
    expect(next[CLUB.registration]).toMatchObject({ status: 'held', hold_reason: 'payment_returned' });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'subject'])
      .where('action', 'in', ['grant.returned', 'grant.bank_confirmed'])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => `${a.action} ${a.subject}`)).toEqual([
      'grant.bank_confirmed round:1',
      'grant.bank_confirmed grant:FG2-1',
      'grant.bank_confirmed grant:FG2-2',
      'grant.returned grant:FG1-1',
      'grant.returned grant:FG2-2',
    ]);
  });
});
