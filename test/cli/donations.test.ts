import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';
import { cli, ok, type Cli } from './harness.js';

/** Donations recorded through the API, found again with the support look-ups. */
let t: TestApp;
let run: Cli;
const references: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now });
  for (const [transactionId, amount, email] of [
    ['ORDER-1', '20.50', 'Jo.Citizen@Example.com'],
    ['ORDER-2', '5', 'sam@example.com'],
    ['ORDER-3', '0.10', 'jo.citizen@example.com'],
  ] as const) {
    const body = donationBody({ transactionId, amount });
    body.donor.email = email;
    const response = await t.post('/donations', body);
    expect(response.statusCode).toBe(200);
    references.push(response.json().data.items.donationReferenceId);
  }
});
afterAll(async () => t.close());

const STOREFRONT = 'Demo Storefront Partner';

describe('donation look-ups', () => {
  it('shows a donation by its reference id', async () => {
    const donation = await ok(run, 'donations', 'show', references[0]!);
    expect(donation).toMatchObject({
      referenceId: references[0],
      partnerName: STOREFRONT,
      channel: 'Storefront App',
      memberNumber: '10000001',
      accountName: 'Riverside Junior Football Club',
      transactionId: 'ORDER-1',
      amountCents: 2050,
      amountAud: '20.50',
      donorEmail: 'Jo.Citizen@Example.com',
      donorMobile: '+61412345678',
      environment: 'sit',
      isLive: false,
      sourceMetadata: { orderNumber: 'ORD-1', orderTotal: '120.50' },
    });
    const human = await run('donations', 'show', references[0]!);
    expect(human.stdout).toMatch(/Amount \(AUD\) +│ 20\.50/);
    expect(human.stdout).toContain('not real: pre-production');

    const missing = await run('donations', 'show', 'DON-NOPE');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Error: No donation with reference id "DON-NOPE".\n');
  });

  it("finds donations by the partner's transaction id, optionally for one partner", async () => {
    expect(
      (await ok(run, 'donations', 'find', '--transaction-id', 'ORDER-2')).map(
        (d: { referenceId: string }) => d.referenceId,
      ),
    ).toEqual([references[1]]);
    expect(
      await ok(run, 'donations', 'find', '--transaction-id', 'ORDER-2', '--partner', 'Demo Registration Partner'),
    ).toEqual([]);
    expect(await ok(run, 'donations', 'find', '--transaction-id', 'ORDER-404')).toEqual([]);
  });

  it("finds donations by the donor's email whatever its case", async () => {
    const found = await ok(run, 'donations', 'find', '--email', 'JO.CITIZEN@example.COM');
    expect(found.map((d: { referenceId: string }) => d.referenceId)).toEqual([references[0], references[2]]);
    const table = await run('donations', 'find', '--email', 'sam@example.com');
    expect(table.stdout).toContain(references[1]);
    expect(table.stdout).toContain('5.00');
    expect((await run('donations', 'find')).stderr).toContain('Give --transaction-id or --email');
  });

  it("lists a partner's donations in a date range with their count and exact total", async () => {
    const today = t.clock.current.toISOString().slice(0, 10);
    const listed = await ok(run, 'donations', 'list', '--partner', STOREFRONT, '--from', today, '--to', today);
    expect(listed).toMatchObject({ partner: STOREFRONT, count: 3, totalAud: '25.60' });
    expect(listed.donations.map((d: { referenceId: string }) => d.referenceId)).toEqual(references);

    const limited = await run('donations', 'list', '--partner', STOREFRONT, '--from', today, '--limit', '2');
    expect(limited.stdout).toContain('3 donation(s), total AUD 25.60 (first 2 listed; raise --limit to see more)');

    const later = new Date(Date.now() + 86_400_000 * 2).toISOString().slice(0, 10);
    expect(await ok(run, 'donations', 'list', '--partner', STOREFRONT, '--from', later)).toMatchObject({
      count: 0,
      totalAud: '0.00',
      donations: [],
    });
    expect((await ok(run, 'donations', 'list', '--partner', 'Demo Registration Partner')).count).toBe(0);

    const badDate = await run('donations', 'list', '--partner', STOREFRONT, '--from', '21/11/2026');
    expect(badDate.code).toBe(1);
    expect(badDate.stderr).toContain('--from "21/11/2026" is not a date (YYYY-MM-DD) or an ISO 8601 timestamp.');
    expect((await run('donations', 'list', '--partner', STOREFRONT, '--from', later, '--to', today)).stderr).toContain(
      '--from must be before --to',
    );
  });

  it('look-ups change nothing and so leave no audit entries', async () => {
    expect(await ok(run, 'audit', 'list')).toEqual([]);
  });
});
