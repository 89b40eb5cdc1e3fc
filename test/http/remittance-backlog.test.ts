import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
/** Past the gate's one-second reading. */
const NEXT_READING_MS = 1001;

let byCount: TestApp;
let byAge: TestApp;
beforeAll(async () => {
  byCount = await startTestApp({
    env: {
      REMITTANCE_BACKLOG_MAX_BATCHES: '2',
      REMITTANCE_BACKLOG_MAX_AGE_SECONDS: '0',
      REMITTANCE_BACKLOG_RETRY_AFTER_SECONDS: '7',
      METRICS_TOKEN: TOKEN,
    },
  });
  byAge = await startTestApp({
    env: { REMITTANCE_BACKLOG_MAX_BATCHES: '0', REMITTANCE_BACKLOG_MAX_AGE_SECONDS: '60' },
  });
});
afterAll(async () => {
  await byCount?.close();
  await byAge?.close();
});

async function postBatch(t: TestApp, idempotencyKey?: string) {
  const donation = await t.post('/donations', donationBody());
  const donationId = donation.json().data.items.donationReferenceId as string;
  const body = {
    source: { channel: 'Storefront App', fundraiserId: '10000001' },
    remittances: [{ bankReferenceId: `BANK-${randomUUID()}`, amount: 20.5, donationIds: [donationId] }],
  };
  const headers = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
  return { body, response: await t.post('/remittances', body, { headers }) };
}

const batchCount = async (t: TestApp) =>
  Number(
    (
      await t.db
        .selectFrom('remittance_batches')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /remittances while reconciliation is behind (docs/decisions/0081)', () => {
  it('answers 503 FUNDRAISER:REMITTANCE_BACKLOG with Retry-After once the bound on waiting batches is reached', async () => {
    expect((await postBatch(byCount, 'backlog-first')).response.statusCode).toBe(202);
    expect((await postBatch(byCount)).response.statusCode).toBe(202);
    byCount.clock.advance(NEXT_READING_MS);
    const stored = await batchCount(byCount);

    const { response } = await postBatch(byCount);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.headers['x-correlation-id']).toBeTruthy();
    expect(response.json()).toMatchObject({
      method: '/remittance',
      error: {
        code: 'FUNDRAISER:REMITTANCE_BACKLOG',
        message: 'Remittance batches are not accepted while reconciliation catches up',
        cause: '2 or more batches are waiting for reconciliation; retry in 7 s',
      },
    });
    expect(await batchCount(byCount)).toBe(stored);
  });

  it('still answers a replay of an accepted batch its 202, and refuses a new key without consuming it', async () => {
    // Still over the bound: this batch is refused, and its body is sent again under a key below.
    const { body, response: withoutKey } = await postBatch(byCount);
    expect(withoutKey.statusCode).toBe(503);
    const key = `backlog-${randomUUID()}`;
    const refused = await byCount.post('/remittances', body, { headers: { 'idempotency-key': key } });
    expect(refused.statusCode).toBe(503);

    await byCount.reconcile();
    byCount.clock.advance(NEXT_READING_MS);
    const accepted = await byCount.post('/remittances', body, { headers: { 'idempotency-key': key } });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.headers['idempotent-replayed']).toBeUndefined();
    const batchId = accepted.json().data.items.batchId as string;

    // Fill the backlog again, then replay the accepted batch: its 202 and its batch id, not a refusal.
    await postBatch(byCount);
    byCount.clock.advance(NEXT_READING_MS);
    expect((await postBatch(byCount)).response.statusCode).toBe(503);
    const replay = await byCount.post('/remittances', body, { headers: { 'idempotency-key': key } });
    expect(replay.statusCode).toBe(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data.items.batchId).toBe(batchId);
  });

  it('accepts batches again once the workers have caught up', async () => {
    await byCount.reconcile();
    byCount.clock.advance(NEXT_READING_MS);
    expect((await postBatch(byCount)).response.statusCode).toBe(202);
  });

  it('shows the backlog and the refusals in /metrics', async () => {
    const response = await byCount.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(/^remittance_batches_refused_total 4$/m);
    expect(response.body).toMatch(/^remittance_backlog_batches \d+$/m);
    expect(response.body).toMatch(/^remittance_backlog_oldest_waiting_seconds [\d.e+-]+$/m);
  });

  it('refuses while the oldest waiting batch has waited past the bound; a dead-lettered batch does not count', async () => {
    const { response } = await postBatch(byAge);
    expect(response.statusCode).toBe(202);
    const batchId = response.json().data.items.batchId as string;
    await sql`update remittance_batches set created_at = now() - interval '2 minutes' where id = ${batchId}`.execute(
      byAge.db,
    );
    byAge.clock.advance(NEXT_READING_MS);
    const refused = (await postBatch(byAge)).response;
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.cause).toMatch(/^The oldest batch waiting for reconciliation has waited 1[12]\d s; /);

    await byAge.db
      .updateTable('remittance_batches')
      .set({ dead_lettered_at: new Date() })
      .where('id', '=', batchId)
      .execute();
    byAge.clock.advance(NEXT_READING_MS);
    expect((await postBatch(byAge)).response.statusCode).toBe(202);
  });
});
