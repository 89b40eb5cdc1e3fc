import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_METRICS_TOKEN, groupSizes, refusePoisonedRows } from '../helpers/group-commit.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Group commit of POST /mandates (docs/decisions/0041-group-commit-of-donations-and-mandates.md): mandates created
 * together share one statement, and each answer is exactly what a statement of its own would have given. A long
 * window makes the groups certain, not likely.
 */
let grouped: TestApp;
let single: TestApp;
beforeAll(async () => {
  const env = {
    METRICS_TOKEN: GROUP_METRICS_TOKEN,
    MANDATE_GROUP_COMMIT_MAX_WAIT_MS: '50',
    MANDATE_GROUP_COMMIT_MAX_ROWS: '64',
  };
  grouped = await startTestApp({ env });
  single = await startTestApp({ env: { ...env, MANDATE_GROUP_COMMIT: 'false' } });
  for (const app of [grouped, single]) await refusePoisonedRows(app, 'mandates', 'fundraiser_email');
}, 120_000);
afterAll(async () => {
  await grouped?.close();
  await single?.close();
});

const mandateBody = (email = `coach-${randomUUID()}@example.com`) => ({
  source: { channel: 'Storefront App', fundraiserId: '10000001' },
  fundraiser: { firstName: 'Sam', lastName: 'Coach', email },
  paymentMethod: 'Direct Debit',
});

const groups = (t: TestApp) => groupSizes(t, 'mandate_group_commit_rows');

const mandateIdOf = (response: { json(): { data: { items: { mandateId: string } } } }) =>
  response.json().data.items.mandateId;
const storedEmails = async (t: TestApp, ids: string[]) =>
  new Map(
    (await t.db.selectFrom('mandates').select(['id', 'fundraiser_email']).where('id', 'in', ids).execute()).map(
      (row) => [row.id, row.fundraiser_email],
    ),
  );

describe('group commit of POST /mandates', () => {
  it('records concurrent mandates in shared statements, each answered with its own mandate', async () => {
    const before = await groups(grouped);
    const bodies = Array.from({ length: 30 }, () => mandateBody());
    const responses = await Promise.all(bodies.map((body) => grouped.post('/mandates', body)));
    expect(responses.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));
    const ids = responses.map(mandateIdOf);
    expect(new Set(ids).size).toBe(30);
    const emails = await storedEmails(grouped, ids);
    ids.forEach((id, i) => expect(emails.get(id)).toBe(bodies[i]!.fundraiser.email));
    const after = await groups(grouped);
    expect(after.rows - before.rows).toBe(30);
    expect(after.count - before.count).toBeLessThan(30);
    // Each is readable at once: the answer came after its row was committed.
    const read = await grouped.get('/mandates', { query: { id: ids[29]! } });
    expect(read.json().data.items).toEqual({ mandateId: ids[29], status: 'requires_payment_method', mandate: {} });
  });

  it('a row the database refuses fails alone, with the answer it gets without group commit', async () => {
    const before = await groups(grouped);
    const good = Array.from({ length: 4 }, () => mandateBody());
    const responses = await Promise.all(
      [...good, mandateBody(`poison-${randomUUID()}@example.com`)].map((body) => grouped.post('/mandates', body)),
    );
    expect((await groups(grouped)).count - before.count).toBe(1);
    expect(responses.slice(0, 4).map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await storedEmails(grouped, responses.slice(0, 4).map(mandateIdOf))).size).toBe(4);

    const alone = await single.post('/mandates', mandateBody(`poison-${randomUUID()}@example.com`));
    const poisoned = responses[4]!;
    expect(alone.statusCode).toBeGreaterThanOrEqual(500);
    expect(poisoned.statusCode).toBe(alone.statusCode);
    expect(poisoned.json().error.code).toBe(alone.json().error.code);
    expect(poisoned.body).not.toContain('poisoned row');
  });

  it('a mandate with an Idempotency-Key is written in its own transaction, and its retry replays it', async () => {
    const before = await groups(grouped);
    const key = randomUUID();
    const body = mandateBody();
    const first = await grouped.post('/mandates', body, { headers: { 'idempotency-key': key } });
    const retry = await grouped.post('/mandates', body, { headers: { 'idempotency-key': key } });
    expect(first.statusCode).toBe(200);
    expect(retry.json().data.items).toEqual(first.json().data.items);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await groups(grouped)).toEqual(before);
  });

  it('MANDATE_GROUP_COMMIT=false records each mandate by its own statement', async () => {
    const before = await groups(single);
    const responses = await Promise.all([mandateBody(), mandateBody()].map((body) => single.post('/mandates', body)));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await storedEmails(single, responses.map(mandateIdOf))).size).toBe(2);
    expect(await groups(single)).toEqual(before);
  });

  it('answers the mandates waiting for their group when the app closes, without waiting out the window', async () => {
    const closing = await startTestApp({
      env: { MANDATE_GROUP_COMMIT_MAX_WAIT_MS: '1000', MANDATE_GROUP_COMMIT_MAX_ROWS: '1000' },
    });
    let answered = false;
    const pending = Promise.all([mandateBody(), mandateBody()].map((body) => closing.post('/mandates', body))).finally(
      () => (answered = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 300)); // both are waiting for their group by now
    await closing.app.close();
    expect(answered).toBe(true);
    const responses = await pending;
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await storedEmails(closing, responses.map(mandateIdOf))).size).toBe(2);
    await closing.close();
  });
});
