import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deidentifyDue } from '../../src/services/privacy/deidentify.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { give, receiptsOf, settle } from '../receipts/donations.js';
import {
  SETTINGS,
  ageDonation,
  createdAt,
  deidentifiedAt,
  donationRow,
  later,
  moneyTotals,
  uniqueEmail,
} from './support.js';

/**
 * The de-identification job (docs/privacy.md, "De-identification"): what outlived DONOR_DATA_RETENTION_YEARS loses
 * its donor's details, exactly once, and nothing a total or a register adds up changes; a receipt inside its
 * statutory five years keeps its donor whatever the settings say.
 */
const METRICS = 'metrics-token-for-privacy-tests';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { METRICS_TOKEN: METRICS } });
});
afterAll(async () => {
  await t.close();
});

describe('the retention boundary of donor details', () => {
  it('keeps a donation a day before its seventh year ends and de-identifies it a day after, receipt and all', async () => {
    const email = uniqueEmail('boundary');
    const id = await give(t, '40.00', { email, firstName: 'Ada', lastName: 'Lovelace' });
    await settle(t, [{ id, amount: 40 }]);
    const created = await createdAt(t, id);
    const before = await moneyTotals(t);

    await deidentifyDue(t.db, SETTINGS, later(created, 7, -1));
    expect(await deidentifiedAt(t, id)).toBeNull();
    expect((await donationRow(t, id)).donor_email).toBe(email);

    const now = later(created, 7, 1);
    await deidentifyDue(t.db, SETTINGS, now);
    const row = await donationRow(t, id);
    expect(row).toMatchObject({
      donor_email: '',
      donor_first_name: '',
      donor_last_name: '',
      donor_mobile: null,
      donor_verified_email: null,
      address_street: null,
      address_city: null,
      address_postal_code: '',
      source_metadata: null,
      // What reports and registers need stays.
      reference_id: id,
      fundraiser_id: '10000001',
    });
    expect(Number(row.amount_cents)).toBe(4000);
    expect(new Date((await deidentifiedAt(t, id))!).getTime()).toBe(now.getTime());
    const [receipt] = await receiptsOf(t, id);
    expect(receipt).toMatchObject({ donor_name: '', donor_email: '', donor_business_name: null });
    expect(receipt!.number).toMatch(/\S/);
    expect(await moneyTotals(t)).toEqual(before);
  });
});

describe('a receipt inside its statutory five years', () => {
  it('holds its donation to 30 June five financial years after its issue, and not a day longer', async () => {
    const email = uniqueEmail('held');
    const id = await give(t, '25.00', { email });
    await settle(t, [{ id, amount: 25 }]);
    // The gift arrived long before its receipt (settled years later): the donation is past seven years at once.
    await ageDonation(t, id, 6);
    const [receipt] = await receiptsOf(t, id);
    const issuedYear = Number(receipt!.financial_year.slice(0, 4));
    // Issued in the financial year issuedYear–issuedYear+1: held until 30 June of issuedYear + 6.
    const lastHeldDay = new Date(`${issuedYear + 6}-06-30T23:00:00+10:00`);
    const firstFreeDay = new Date(`${issuedYear + 6}-07-01T01:00:00+10:00`);

    await deidentifyDue(t.db, SETTINGS, lastHeldDay);
    expect(await deidentifiedAt(t, id)).toBeNull();
    expect((await receiptsOf(t, id))[0]!.donor_email).toBe(email);

    await deidentifyDue(t.db, SETTINGS, firstFreeDay);
    expect(await deidentifiedAt(t, id)).not.toBeNull();
    expect((await receiptsOf(t, id))[0]!.donor_email).toBe('');
  });
});

describe('mail', () => {
  it('purges bodies of sent messages after MAIL_BODY_RETENTION_DAYS, never a pending one', async () => {
    const { rows } = await sql<{ id: string; status: string }>`
      insert into mail_outbox (kind, recipient, subject, text_body, html_body, status, created_at)
      values ('receipt', 'mail.one@example.com', 'Tax receipt', 'Dear Jo', '<p>Dear Jo</p>', 'sent', now()),
             ('receipt', 'mail.two@example.com', 'Tax receipt', 'Dear Al', '<p>Dear Al</p>', 'pending', now())
      returning id, status`.execute(t.db);
    const base = new Date();
    await deidentifyDue(t.db, SETTINGS, later(base, 0, 89));
    const kept = await t.db
      .selectFrom('mail_outbox')
      .select(['id', 'text_body'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(kept.every((m) => m.text_body !== null)).toBe(true);

    await deidentifyDue(t.db, SETTINGS, later(base, 0, 91));
    const after = await t.db
      .selectFrom('mail_outbox')
      .select(['id', 'status', 'subject', 'text_body', 'html_body', 'recipient'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const sent = after.find((m) => m.status === 'sent')!;
    const pending = after.find((m) => m.status === 'pending')!;
    expect(sent).toMatchObject({
      text_body: null,
      html_body: null,
      subject: 'Tax receipt',
      recipient: 'mail.one@example.com',
    });
    expect(pending).toMatchObject({ text_body: 'Dear Al', recipient: 'mail.two@example.com' });

    // The recipient follows the donor-data retention.
    await deidentifyDue(t.db, SETTINGS, later(base, 7, 1));
    const old = await t.db
      .selectFrom('mail_outbox')
      .select('recipient')
      .where('id', '=', sent.id)
      .executeTakeFirstOrThrow();
    expect(old.recipient).toBe('');
  });
});

describe('exactly once', () => {
  it('two runs at once de-identify each row once: the counts add up to the rows changed', async () => {
    const ids = [];
    for (let i = 0; i < 7; i += 1) ids.push(await give(t, '10.00', { email: uniqueEmail('twice') }));
    const now = later(await createdAt(t, ids[ids.length - 1]!), 7, 2);
    const { rows: due } = await sql<{ n: number }>`select count(*)::int as n from donations
      where deidentified_at is null and created_at < ${later(now, -7)}`.execute(t.db);

    const reports = await Promise.all([deidentifyDue(t.db, SETTINGS, now), deidentifyDue(t.db, SETTINGS, now)]);
    expect(reports[0].donations + reports[1].donations).toBe(due[0]!.n);
    for (const id of ids) expect(await deidentifiedAt(t, id)).not.toBeNull();
    // A third run finds nothing left, and changes no time already recorded.
    const third = await deidentifyDue(t.db, SETTINGS, later(now, 0, 1));
    expect(third.donations).toBe(0);
    expect(new Date((await deidentifiedAt(t, ids[0]!))!).getTime()).toBe(now.getTime());
  });
});

describe('progress on /metrics', () => {
  it('shows the rows de-identified by kind, every instance the same figures', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS}` },
    });
    const { rows } = await sql<{ rows: string }>`select rows::text as rows from privacy_totals
      where kind = 'donations'`.execute(t.db);
    expect(Number(rows[0]!.rows)).toBeGreaterThan(0);
    expect(response.body).toContain(`privacy_deidentified_rows{kind="donations"} ${rows[0]!.rows}`);
    expect(response.body).toMatch(/privacy_last_run_timestamp_seconds \d+/);
    expect(response.body).toMatch(/privacy_donations_past_retention \d+/);
  });
});
