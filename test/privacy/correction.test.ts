import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give, receiptsOf, settle } from '../receipts/donations.js';
import { confirmedMandate } from '../recurring/support.js';
import { donationRow, uniqueEmail } from './support.js';

/** Correcting a person's details (docs/privacy.md): every record, receipts voided and reissued; audited. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close(), 60_000);

const admin = () => cli({ database: t.database, operator: 'alice@foundation.test' });

describe('privacy correct', () => {
  it('corrects every donation, reissues each receipt in force to the corrected address', async () => {
    const old = uniqueEmail('old');
    const fresh = uniqueEmail('new');
    const receipted = await give(t, '20.00', { email: old, firstName: 'Jo', lastName: 'Smyth' });
    await settle(t, [{ id: receipted, amount: 20 }]);
    const plain = await give(t, '4.00', { email: old.toUpperCase(), firstName: 'Jo', lastName: 'Smyth' });
    const [first] = await receiptsOf(t, receipted);

    const result = await admin()(
      'privacy',
      'correct',
      '--email',
      old,
      '--new-email',
      fresh,
      '--last-name',
      'Smith',
      '--reason',
      'misspelt',
      '--json',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ donations: 2, receiptsReissued: 1, mandates: 0 });

    for (const ref of [receipted, plain])
      expect(await donationRow(t, ref)).toMatchObject({
        donor_email: fresh,
        donor_first_name: 'Jo',
        donor_last_name: 'Smith',
      });
    const [voided, replacement] = await receiptsOf(t, receipted);
    expect(voided).toMatchObject({ id: first!.id, void_reason: 'donor details corrected: misspelt' });
    expect(replacement).toMatchObject({
      donor_email: fresh,
      donor_name: 'Jo Smith',
      replaces_id: first!.id,
      voided_at: null,
    });
    const mail = await sql<{ recipient: string }>`select recipient from mail_outbox
      where about like ${'%' + receipted + '%'} or attachments::text like ${'%' + replacement!.id + '%'}`.execute(t.db);
    expect(mail.rows.map((m) => m.recipient)).toContain(fresh);

    // Found by the corrected address from now on; the audit log names no one.
    const again = await admin()('privacy', 'correct', '--email', old, '--first-name', 'X', '--reason', 'again');
    expect(again.code).not.toBe(0);
    const audit = await sql<{
      details: unknown;
    }>`select details from audit_log where action = 'privacy.correct'`.execute(t.db);
    expect(audit.rows).toHaveLength(1);
    expect(JSON.stringify(audit.rows)).not.toContain(fresh);
    expect(JSON.stringify(audit.rows)).not.toContain(old);
  });

  it('corrects the person of a mandate, and refuses a correction that changes nothing', async () => {
    const mandateId = await confirmedMandate(t);
    const result = await admin()(
      'privacy',
      'correct',
      '--email',
      'pat.payer@example.com',
      '--first-name',
      'Patricia',
      '--reason',
      'asked',
      '--json',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.json().mandates).toBe(1);
    const mandate = await t.db.selectFrom('mandates').selectAll().where('id', '=', mandateId).executeTakeFirstOrThrow();
    expect(mandate).toMatchObject({ fundraiser_first_name: 'Patricia', fundraiser_last_name: 'Payer' });

    const nothing = await admin()('privacy', 'correct', '--email', 'pat.payer@example.com', '--reason', 'asked');
    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toContain('Give what to correct');
  });
});
