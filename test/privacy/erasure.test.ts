import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar-date.js';
import { cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give, receiptsOf, settle } from '../receipts/donations.js';
import { confirmedMandate, eventsOf, startPlan, todayOf } from '../recurring/support.js';
import { deidentifiedAt, donationRow, later, uniqueEmail } from './support.js';

/**
 * Erasure requests (docs/privacy.md, "An erasure request"): asked by one operator, performed by another; what no law
 * requires kept is de-identified, what is kept is said with why and until when; partners get `donor.erased` with
 * references only; the log keeps references, never the address, and replays them after a restore.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close(), 60_000);

const as = (operator: string, now?: Date) =>
  cli({ database: t.database, operator, ...(now ? { now: () => now } : {}) });

async function erase(email: string, now?: Date) {
  const asked = await as('alice@foundation.test', now)(
    'privacy',
    'erase',
    '--email',
    email,
    '--reason',
    'asked',
    '--json',
  );
  expect(asked.code, asked.stderr).toBe(0);
  return asked.json().id as string;
}

describe('an erasure with and without legal holds', () => {
  it('erases what no law keeps, keeps a receipt inside its five years and says until when', async () => {
    const email = uniqueEmail('erase');
    const settled = await give(t, '30.00', { email: email.toUpperCase(), firstName: 'Grace', lastName: 'Hopper' });
    await settle(t, [{ id: settled, amount: 30 }]);
    const unsettled = await give(t, '12.00', { email });
    const [receipt] = await receiptsOf(t, settled);

    const id = await erase(email);
    // Nothing changes until it is approved.
    expect((await donationRow(t, unsettled)).donor_email).toBe(email);

    const approved = await as('bob@foundation.test')('privacy', 'approve', '--request', id, '--json');
    expect(approved.code, approved.stderr).toBe(0);
    const result = approved.json();
    expect(result).toMatchObject({
      status: 'done',
      requestedBy: 'alice@foundation.test',
      decidedBy: 'bob@foundation.test',
    });
    expect(result.erased.donations).toBe(1);
    const year = Number(receipt!.financial_year.slice(0, 4));
    expect(result.kept).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'donation', ref: settled, until: `${year + 6}-06-30` }),
        expect.objectContaining({ kind: 'receipt', ref: receipt!.number, until: `${year + 6}-06-30` }),
      ]),
    );
    expect(await deidentifiedAt(t, unsettled)).not.toBeNull();
    expect((await donationRow(t, unsettled)).donor_first_name).toBe('');
    expect(await deidentifiedAt(t, settled)).toBeNull();
    expect((await receiptsOf(t, settled))[0]!.donor_email).toBe(email.toUpperCase());

    // The request keeps references only; the audit log names no one.
    const { rows } = await sql<{ email: string | null; erased: unknown }>`select email, erased from erasure_requests
      where id = ${id}`.execute(t.db);
    expect(rows[0]!.email).toBeNull();
    const audit = await sql<{
      details: unknown;
    }>`select details from audit_log where subject = ${`erasure:${id}`}`.execute(t.db);
    expect(audit.rows).toHaveLength(2);
    expect(JSON.stringify(audit.rows).toLowerCase()).not.toContain(email);
    expect(JSON.stringify(rows[0]!.erased)).not.toContain(email);

    // The partner is told, with its references only.
    const events = (await eventsOf(t)).filter((e) => e.type === 'donor.erased');
    const event = events.find((e) => e.data.erasureId === id)!;
    expect(event.data).toEqual({ erasureId: id, donationReferenceIds: [unsettled], mandateIds: [] });
  });

  it('erases the receipt too once its five years are over', async () => {
    const email = uniqueEmail('old');
    const id = await give(t, '30.00', { email });
    await settle(t, [{ id, amount: 30 }]);
    const later7 = later(new Date(), 7);
    const request = await erase(email, later7);
    const approved = await as('bob@foundation.test', later7)('privacy', 'approve', '--request', request, '--json');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json().kept).toEqual([]);
    expect((await receiptsOf(t, id))[0]).toMatchObject({ donor_email: '', donor_name: '' });
  });
});

describe('four eyes', () => {
  it('refuses the operator who asked, and a request already done', async () => {
    const email = uniqueEmail('eyes');
    await give(t, '5.00', { email });
    const id = await erase(email);
    const own = await as('alice@foundation.test')('privacy', 'approve', '--request', id);
    expect(own.code).not.toBe(0);
    expect(own.stderr).toContain('another operator must approve it');
    const { rows } = await sql<{ status: string }>`select status from erasure_requests where id = ${id}`.execute(t.db);
    expect(rows[0]!.status).toBe('pending');
    const status = await as('carol@foundation.test')('privacy', 'status', '--json');
    expect(status.json().pending).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, requestedBy: 'alice@foundation.test' })]),
    );

    expect((await as('bob@foundation.test')('privacy', 'approve', '--request', id)).code).toBe(0);
    const after = await as('carol@foundation.test')('privacy', 'status', '--json');
    expect(after.json().pending.map((p: { id: string }) => p.id)).not.toContain(id);
    const again = await as('carol@foundation.test')('privacy', 'approve', '--request', id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('done already');
  });
});

describe('a mandate with a live plan', () => {
  it('refuses the erasure until the plan is cancelled', async () => {
    const mandateId = await confirmedMandate(t);
    const today = await todayOf(t);
    const plan = await startPlan(t, { mandateId, amount: '10.00', frequency: 'monthly', startDate: addDays(today, 7) });
    const refused = await as('alice@foundation.test')(
      'privacy',
      'erase',
      '--email',
      'pat.payer@example.com',
      '--reason',
      'asked',
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`Mandate ${mandateId} has a live recurring donation`);

    const cancelled = await as('alice@foundation.test')(
      'recurring',
      'cancel',
      plan.recurringDonationId,
      '--reason',
      'asked',
    );
    expect(cancelled.code, cancelled.stderr).toBe(0);
    const id = await erase('pat.payer@example.com');
    const approved = await as('bob@foundation.test')('privacy', 'approve', '--request', id, '--json');
    expect(approved.code, approved.stderr).toBe(0);
    const mandate = await t.db.selectFrom('mandates').selectAll().where('id', '=', mandateId).executeTakeFirstOrThrow();
    expect(mandate).toMatchObject({ fundraiser_email: '', fundraiser_first_name: '', fundraiser_last_name: '' });
  });
});

describe('after a restore', () => {
  it('replays every performed erasure from its references, and a second replay changes nothing', async () => {
    const email = uniqueEmail('restore');
    const ref = await give(t, '8.00', { email, firstName: 'Restored' });
    const id = await erase(email);
    expect((await as('bob@foundation.test')('privacy', 'approve', '--request', id)).code).toBe(0);
    // A backup from before the erasure brings the details back.
    await sql`update donations set donor_email = ${email}, donor_first_name = 'Restored', deidentified_at = null
              where reference_id = ${ref}`.execute(t.db);

    const replay = await as('carol@foundation.test')('privacy', 'replay-erasures', '--json');
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.json().rows).toBeGreaterThanOrEqual(1);
    expect(await donationRow(t, ref)).toMatchObject({ donor_email: '', donor_first_name: '' });
    const second = await as('carol@foundation.test')('privacy', 'replay-erasures', '--json');
    expect(second.json().rows).toBe(0);
  });
});

describe('privacy run', () => {
  it('runs the de-identification now, with the settings of the service', async () => {
    const email = uniqueEmail('run');
    const ref = await give(t, '3.00', { email });
    const ran = await as('carol@foundation.test', later(new Date(), 7, 2))('privacy', 'run', '--json');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.json()).toMatchObject({ finished: true });
    expect(ran.json().donations).toBeGreaterThanOrEqual(1);
    expect(await deidentifiedAt(t, ref)).not.toBeNull();
  });
});
