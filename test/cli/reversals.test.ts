import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventsOf } from '../recurring/support.js';
import { donation, partnerReversal, partnerView, remit } from '../reversals/support.js';
import { cli, ok, type Cli } from './harness.js';

/**
 * fundraiser-admin donations reverse and reversals owed | export | repaid (docs/reversals.md, "Operators"): donations
 * recorded and settled through the partner API, reversed by an operator, listed for finance, exported and repaid.
 */
let t: TestApp;
let run: Cli;
const OPERATOR = 'finance@foundation.example';
const STOREFRONT = 'Demo Storefront Partner';
const REGISTRATION = 'Demo Registration Partner';
const DAY_MS = 86_400_000;

beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now, operator: OPERATOR });
}, 180_000);
afterAll(async () => t?.close());

const audited = (action: string) => ok(run, 'audit', 'list', '--action', action);

describe('fundraiser-admin donations reverse', () => {
  it('reverses part of any partner’s donation, audited; the partner is told the foundation asked', async () => {
    const ref = await donation(t, '20.00');
    const reversal = await ok(
      run,
      'donations',
      'reverse',
      ref,
      '--amount',
      '5.00',
      '--reason',
      'refunded',
      '--note',
      'Order 77 canceled by phone',
    );
    expect(reversal).toMatchObject({
      donationReferenceId: ref,
      partnerName: STOREFRONT,
      amountCents: 500,
      amountAud: '5.00',
      reason: 'refunded',
      requestedBy: OPERATOR,
      note: 'Order 77 canceled by phone',
      owedBack: false,
      repaidAt: null,
    });

    const seen = await partnerView(t, ref);
    expect(seen).toMatchObject({ netAmount: '15.00', reversedAmount: '5.00', owedBack: '0.00' });
    expect(seen.reversals).toEqual([
      expect.objectContaining({ reversalId: reversal.reversalId, requestedBy: 'foundation', owedBack: false }),
    ]);
    const told = (await eventsOf(t)).filter((e) => e.type === 'donation.reversed');
    expect(told.map((e) => [e.data.reversal.reversalId, e.data.reversal.requestedBy, e.data.netAmount])).toEqual([
      [reversal.reversalId, 'foundation', '15.00'],
    ]);
    expect(JSON.stringify(told)).not.toContain(OPERATOR);

    expect(await audited('donation.reverse')).toEqual([
      expect.objectContaining({
        actor: OPERATOR,
        subject: ref,
        details: expect.objectContaining({
          reversalId: reversal.reversalId,
          amount: '5.00',
          reason: 'refunded',
          note: 'Order 77 canceled by phone',
          owedBack: false,
        }),
      }),
    ]);

    const shown = await ok(run, 'donations', 'show', ref);
    expect(shown).toMatchObject({ reversedAud: '5.00', netAud: '15.00', owedBackAud: '0.00' });
    expect(shown.reversals).toEqual([
      expect.objectContaining({ reversalId: reversal.reversalId, note: 'Order 77 canceled by phone' }),
    ]);
    const human = await run('donations', 'show', ref);
    expect(human.stdout).toMatch(/Net amount \(AUD\) +│ 15\.00/);
    expect(human.stdout).toContain(reversal.reversalId);
  });

  it('refuses too much, a donation reversed in full, one without an amount, and bad input; nothing changes', async () => {
    const ref = await donation(t, '10.00');
    const reverse = (amount: string, extra: string[] = []) =>
      run(
        'donations',
        'reverse',
        ref,
        '--amount',
        amount,
        '--reason',
        'duplicate',
        '--note',
        'charged twice',
        ...extra,
      );

    const tooMuch = await reverse('10.01');
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toBe(`Error: At most 10.00 of donation ${ref} is left to reverse.\n`);
    expect((await reverse('10')).code).toBe(0);
    const again = await reverse('1');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`Error: Donation ${ref} is already reversed in full.\n`);

    const noAmount = await donation(t, null);
    const cannot = await run('donations', 'reverse', noAmount, '--amount', '1', '--reason', 'error', '--note', 'x');
    expect(cannot.stderr).toBe(
      `Error: Donation ${noAmount} was recorded without an amount: there is no amount to reverse.\n`,
    );
    const unknown = await run('donations', 'reverse', 'DON-NOPE', '--amount', '1', '--reason', 'error', '--note', 'x');
    expect(unknown.stderr).toBe('Error: No donation with reference id "DON-NOPE" (see "donations find").\n');

    const other = await donation(t, '3.00');
    const bad = (...args: string[]) => run('donations', 'reverse', other, ...args);
    expect((await bad('--amount', '0', '--reason', 'error', '--note', 'x')).stderr).toContain(
      'is not an amount to reverse',
    );
    expect((await bad('--amount', '1.005', '--reason', 'error', '--note', 'x')).code).toBe(1);
    expect((await bad('--amount', '1', '--reason', 'error', '--note', '  ')).stderr).toContain('Say why');
    // The partner's reasons only: a dispute is the bank's.
    expect((await bad('--amount', '1', '--reason', 'disputed', '--note', 'x')).code).toBe(2);
    expect((await bad('--amount', '1', '--reason', 'error')).code).toBe(2);
    // Partners read "partner" and "provider" as themselves and the bank.
    const reserved = await bad('--amount', '1', '--reason', 'error', '--note', 'x', '--operator', 'partner');
    expect(reserved.code).toBe(1);

    expect((await partnerView(t, other)).reversals).toEqual([]);
    expect(await audited('donation.reverse')).toHaveLength(2);
  });
});

describe('fundraiser-admin reversals owed | export | repaid', () => {
  /** Settled, then reversed: owed back. Reversed before settlement: not owed. Another partner's: owed. */
  const refs = { settled: '', beforeSettlement: '', registration: '' };
  const reversals = { settled: '', registration: '', beforeSettlement: '' };

  beforeAll(async () => {
    refs.settled = await donation(t, '12.00');
    refs.beforeSettlement = await donation(t, '8.00');
    refs.registration = await donation(t, '30.00', 'registration');
    reversals.beforeSettlement = (await partnerReversal(t, refs.beforeSettlement, '2.00')).reversalId;
    await remit(t, [
      { ref: 'OWED-A', amount: 12, ids: [refs.settled] },
      { ref: 'OWED-B', amount: 6, ids: [refs.beforeSettlement] },
    ]);
    await remit(t, [{ ref: 'OWED-R', amount: 30, ids: [refs.registration] }], 'registration');
    const settled = await ok(
      run,
      'donations',
      'reverse',
      refs.settled,
      '--amount',
      '2.50',
      '--reason',
      'refunded',
      '--note',
      '=HYPERLINK("x"), said "refund"',
    );
    reversals.settled = settled.reversalId;
    expect(settled.owedBack).toBe(true);
    reversals.registration = (await partnerReversal(t, refs.registration, '30', 'registration')).reversalId;
    t.clock.advance(3 * DAY_MS + 3_600_000);
  });

  it('lists what is owed back, oldest first, with age, who asked and totals per partner; filters by partner', async () => {
    const owed = await ok(run, 'reversals', 'owed');
    expect(owed.reversals.map((r: { reversalId: string }) => r.reversalId)).toEqual([
      reversals.settled,
      reversals.registration,
    ]);
    expect(owed.reversals[0]).toMatchObject({
      partnerName: STOREFRONT,
      donationReferenceId: refs.settled,
      fundraiserId: '10000001',
      accountName: 'Riverside Junior Football Club',
      amountAud: '2.50',
      reason: 'refunded',
      requestedBy: OPERATOR,
      ageDays: 3,
    });
    expect(owed.reversals[1]).toMatchObject({
      partnerName: REGISTRATION,
      requestedBy: 'partner',
      amountAud: '30.00',
      ageDays: 3,
    });
    expect(owed.totals).toEqual([
      { partnerName: REGISTRATION, environment: 'sit', count: 1, totalCents: 3000, totalAud: '30.00' },
      { partnerName: STOREFRONT, environment: 'sit', count: 1, totalCents: 250, totalAud: '2.50' },
    ]);
    expect(owed).toMatchObject({ count: 2, totalCents: 3250, totalAud: '32.50' });

    const storefront = await ok(run, 'reversals', 'owed', '--partner', STOREFRONT);
    expect(storefront.reversals.map((r: { reversalId: string }) => r.reversalId)).toEqual([reversals.settled]);
    expect(storefront).toMatchObject({ count: 1, totalAud: '2.50' });

    const cut = await run('reversals', 'owed', '--limit', '1');
    expect(cut.stdout).toContain('Owed back in all: 2 reversal(s), AUD 32.50 (oldest 1 listed');
    expect(cut.stdout).not.toContain(reversals.registration);
    expect((await run('reversals', 'owed', '--partner', 'Nobody')).stderr).toContain('No partner with name or id');
  });

  it('exports the list as CSV: quoted, formulas neutralised, read back by csv-parse', async () => {
    const exported = await run('reversals', 'export', '--owed');
    expect(exported.code).toBe(0);
    expect(exported.stdout.split('\r\n')[0]).toBe(
      'reversalId,reversedAt,ageDays,partner,environment,donationReferenceId,fundraiserId,fundraiserName,amountAud,reason,requestedBy,note',
    );
    expect(exported.stdout).toContain('"\'=HYPERLINK(""x""), said ""refund"""');
    const rows = parse<Record<string, string>>(exported.stdout, { columns: true });
    expect(rows).toEqual([
      expect.objectContaining({
        reversalId: reversals.settled,
        ageDays: '3',
        partner: STOREFRONT,
        donationReferenceId: refs.settled,
        fundraiserName: 'Riverside Junior Football Club',
        amountAud: '2.50',
        requestedBy: OPERATOR,
        note: '\'=HYPERLINK("x"), said "refund"',
      }),
      expect.objectContaining({
        reversalId: reversals.registration,
        partner: REGISTRATION,
        amountAud: '30.00',
        note: '',
      }),
    ]);
    const one = parse((await run('reversals', 'export', '--owed', '--partner', REGISTRATION)).stdout, {
      columns: true,
    });
    expect(one).toHaveLength(1);
    const asJson = await run('reversals', 'export', '--owed', '--partner', REGISTRATION, '--json');
    expect(JSON.parse(asJson.stdout)).toEqual([expect.objectContaining({ reversalId: reversals.registration })]);
    expect((await run('reversals', 'export')).code).toBe(2);
  });

  it('marks a reversal repaid once, audited; refuses one never owed; the partner sees nothing owed', async () => {
    const noNote = await run('reversals', 'repaid', reversals.registration, '--note', ' ');
    expect(noNote.code).toBe(1);
    const repaid = await ok(run, 'reversals', 'repaid', reversals.registration, '--note', 'EFT 2026-12-01 ref 991');
    expect(repaid).toMatchObject({ reversalId: reversals.registration, repaidBy: OPERATOR });
    expect(new Date(repaid.repaidAt).getTime()).toBe(t.clock.now().getTime());

    const again = await run('reversals', 'repaid', reversals.registration, '--note', 'twice');
    expect(again.stderr).toContain(`Reversal ${reversals.registration} was already marked repaid by ${OPERATOR}`);
    const never = await run('reversals', 'repaid', reversals.beforeSettlement, '--note', 'x');
    expect(never.stderr).toContain('was made before its donation was settled: nothing is owed back');
    expect((await run('reversals', 'repaid', 'REV-NOPE', '--note', 'x')).stderr).toContain(
      'No reversal with id "REV-NOPE"',
    );

    expect((await ok(run, 'reversals', 'owed')).reversals.map((r: { reversalId: string }) => r.reversalId)).toEqual([
      reversals.settled,
    ]);
    expect(await partnerView(t, refs.registration, 'registration')).toMatchObject({
      owedBack: '0.00',
      netAmount: '0.00',
    });
    expect(await audited('reversal.repaid')).toEqual([
      expect.objectContaining({
        actor: OPERATOR,
        subject: refs.registration,
        details: expect.objectContaining({
          reversalId: reversals.registration,
          amount: '30.00',
          note: 'EFT 2026-12-01 ref 991',
        }),
      }),
    ]);
    const shown = await ok(run, 'donations', 'show', refs.registration);
    expect(shown.reversals).toEqual([expect.objectContaining({ repaidBy: OPERATOR })]);
    expect(shown.owedBackAud).toBe('0.00');
  });
});
