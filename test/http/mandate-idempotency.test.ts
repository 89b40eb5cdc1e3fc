import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(async () => t?.close(), 60_000);

const body = (channel = 'Storefront App', fundraiserId = '10000001', email = 'sam.coach@example.com') => ({
  source: { channel, fundraiserId },
  fundraiser: { firstName: 'Sam', lastName: 'Coach', email },
  paymentMethod: 'Direct Debit',
});
const registrationBody = () => body('Registration Integration', '10000001');

/** The provider key recorded with a mandate. */
const providerKeyOf = async (mandateId: string) =>
  (
    await t.db
      .selectFrom('mandates')
      .select('provider_idempotency_key')
      .where('id', '=', mandateId)
      .executeTakeFirstOrThrow()
  ).provider_idempotency_key;

describe('the provider idempotency key of a mandate is ours, never the correlation id', () => {
  it('a retry with the same correlation id and no Idempotency-Key is a new mandate, not a 500', async () => {
    const correlationId = randomUUID();
    const first = await t.post('/mandates', body(), { correlationId });
    const again = await t.post('/mandates', body(), { correlationId });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.items.mandateId).not.toBe(first.json().data.items.mandateId);
    expect(await providerKeyOf(first.json().data.items.mandateId)).not.toContain(correlationId);
  });

  it('two partners sending the same correlation id get their own mandates', async () => {
    const correlationId = randomUUID();
    const mine = await t.post('/mandates', body(), { correlationId });
    const theirs = await t.post('/mandates', registrationBody(), { correlationId, as: t.registration });
    expect([mine.statusCode, theirs.statusCode]).toEqual([200, 200]);
    const mineId = mine.json().data.items.mandateId;
    const theirsId = theirs.json().data.items.mandateId;
    expect(theirsId).not.toBe(mineId);
    expect(theirs.json().data.items.clientSecret).not.toBe(mine.json().data.items.clientSecret);
    expect((await t.get('/mandates', { query: { id: mineId }, as: t.registration })).statusCode).toBe(404);
  });

  it('two partners sending the same Idempotency-Key never meet', async () => {
    const key = `order-${randomUUID()}`;
    const mine = await t.post('/mandates', body(), { headers: { 'idempotency-key': key } });
    const theirs = await t.post('/mandates', registrationBody(), {
      headers: { 'idempotency-key': key },
      as: t.registration,
    });
    expect([mine.statusCode, theirs.statusCode]).toEqual([200, 200]);
    expect(theirs.json().data.items.mandateId).not.toBe(mine.json().data.items.mandateId);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a retry with the same Idempotency-Key (and a new correlation id) replays the first mandate', async () => {
    const key = `order-${randomUUID()}`;
    const first = await t.post('/mandates', body(), { headers: { 'idempotency-key': key } });
    const retries = await Promise.all(
      [1, 2, 3].map(() => t.post('/mandates', body(), { headers: { 'idempotency-key': key } })),
    );
    for (const retry of retries) {
      expect(retry.statusCode).toBe(200);
      expect(retry.json().data.items).toEqual(first.json().data.items);
      expect(retry.headers['idempotent-replayed']).toBe('true');
    }
    const rows = await t.db
      .selectFrom('mandates')
      .select('id')
      .where('id', '=', first.json().data.items.mandateId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('concurrent first attempts with one Idempotency-Key create one mandate and agree on it', async () => {
    const key = `race-${randomUUID()}`;
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => t.post('/mandates', body(), { headers: { 'idempotency-key': key } })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().data.items.mandateId)).size).toBe(1);
  });

  it('the same Idempotency-Key with another body is 409, and no second mandate is recorded', async () => {
    const key = `order-${randomUUID()}`;
    const first = await t.post('/mandates', body(), { headers: { 'idempotency-key': key } });
    const before = await t.db
      .selectFrom('mandates')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const other = await t.post('/mandates', body('Storefront App', '10000001', 'other@example.com'), {
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(200);
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('FUNDRAISER:CONFLICT');
    const after = await t.db
      .selectFrom('mandates')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
