import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDonationRecords } from '../../src/infrastructure/repositories/donation-lookups.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

/** transaction.date without an offset: the foundation's local time (FOUNDATION_TIME_ZONE), kept as sent. */
let sydney: TestApp;
let perth: TestApp;
beforeAll(async () => {
  sydney = await startTestApp();
  perth = await startTestApp({ env: { FOUNDATION_TIME_ZONE: 'Australia/Perth' } });
});
afterAll(async () => {
  await sydney?.close();
  await perth?.close();
});

const withDate = (date: string) => {
  const body = donationBody();
  body.transaction.date = date;
  return body;
};

async function stored(t: TestApp, referenceId: string) {
  const row = await t.db
    .selectFrom('donations')
    .select(['transaction_date_raw', 'transaction_at'])
    .where('reference_id', '=', referenceId)
    .executeTakeFirstOrThrow();
  return { raw: row.transaction_date_raw, at: new Date(row.transaction_at!).toISOString() };
}

async function record(t: TestApp, date: string) {
  const response = await t.post('/donations', withDate(date));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items.donationReferenceId as string;
}

describe('POST /donations with a transaction.date without an offset', () => {
  it('reads it as Sydney time, daylight saving included, and keeps the string as sent', async () => {
    const summer = await record(sydney, '2026-11-20T14:03:00');
    expect(await stored(sydney, summer)).toEqual({ raw: '2026-11-20T14:03:00', at: '2026-11-20T03:03:00.000Z' });
    const winter = await record(sydney, '2026-07-15T09:30:00.5');
    expect(await stored(sydney, winter)).toEqual({ raw: '2026-07-15T09:30:00.5', at: '2026-07-14T23:30:00.500Z' });
    // What operators read (the CLI's and the console's lookups) is still the original string.
    const [found] = await findDonationRecords(sydney.db, { referenceId: summer, limit: 1 });
    expect(found?.transactionDate).toBe('2026-11-20T14:03:00');
  });

  it('takes the earlier instant in the hour repeated when clocks go back', async () => {
    const referenceId = await record(sydney, '2026-04-05T02:30:00');
    expect((await stored(sydney, referenceId)).at).toBe('2026-04-04T15:30:00.000Z');
  });

  it('refuses a time in the hour skipped when clocks go forward, naming transaction.date', async () => {
    const response = await sydney.post('/donations', withDate('2026-10-04T02:30:00'));
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('FUNDRAISER:VALIDATION');
    expect(error.cause).toBe(
      'transaction.date: is a local time that does not exist in Australia/Sydney (its clocks skip it, as when ' +
        'daylight saving starts); send the time with its offset',
    );
  });

  it('reports it with every other failing field in one answer', async () => {
    const body = withDate('2026-10-04T02:15:00');
    body.donor.email = 'not-an-email';
    const { error } = (await sydney.post('/donations', body)).json();
    expect(error.cause).toContain('donor.email: must be a valid email address');
    expect(error.cause).toContain('transaction.date: is a local time that does not exist in Australia/Sydney');
  });

  it('describes the rule when the text is no date-time at all', async () => {
    const response = await sydney.post('/donations', withDate('2026-11-20 14:03'));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toBe(
      'transaction.date: must be an ISO 8601 date-time naming a real instant, with Z or an offset ' +
        "(2026-11-21T10:00:00+11:00) or without one as the foundation's local time (2026-11-21T10:00:00)",
    );
  });

  it('leaves a date with an offset as it was: that instant, even in the skipped hour’s wall time', async () => {
    const referenceId = await record(sydney, '2026-10-04T02:30:00+10:00');
    expect(await stored(sydney, referenceId)).toEqual({
      raw: '2026-10-04T02:30:00+10:00',
      at: '2026-10-03T16:30:00.000Z',
    });
  });

  it('reads it in the zone FOUNDATION_TIME_ZONE names', async () => {
    // Perth keeps +08:00 all year: no hour is skipped there.
    const referenceId = await record(perth, '2026-10-04T02:30:00');
    expect(await stored(perth, referenceId)).toEqual({ raw: '2026-10-04T02:30:00', at: '2026-10-03T18:30:00.000Z' });
  });
});

describe('other date-time fields', () => {
  it('still need an offset (GET /remittances receivedFrom)', async () => {
    const response = await sydney.get('/remittances', { query: { receivedFrom: '2026-11-20T14:03:00' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.cause).toContain(
      'query.receivedFrom: must be an ISO 8601 date-time naming a real instant',
    );
  });
});
