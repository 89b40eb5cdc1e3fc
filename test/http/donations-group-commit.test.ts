import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_METRICS_TOKEN, groupSizes, refusePoisonedRows } from '../helpers/group-commit.js';
import { donationBody, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Group commit (docs/decisions/0041-group-commit-of-donations-and-mandates.md): donations arriving together share
 * one statement, and each answer is exactly what a statement of its own would have given. A long window makes the
 * groups in these tests certain, not likely.
 */
let grouped: TestApp;
let single: TestApp;
beforeAll(async () => {
  const env = {
    METRICS_TOKEN: GROUP_METRICS_TOKEN,
    DONATION_GROUP_COMMIT_MAX_WAIT_MS: '50',
    DONATION_GROUP_COMMIT_MAX_ROWS: '64',
  };
  grouped = await startTestApp({ env });
  single = await startTestApp({ env: { ...env, DONATION_GROUP_COMMIT: 'false' } });
  for (const app of [grouped, single]) await refusePoisonedRows(app, 'donations', 'transaction_id');
}, 120_000);
afterAll(async () => {
  await grouped?.close();
  await single?.close();
});

const groups = (t: TestApp) => groupSizes(t, 'donation_group_commit_rows');

const post = (t: TestApp, body: unknown) => t.post('/donations', body);
const referenceOf = (response: { json(): { data: { items: { donationReferenceId: string } } } }) =>
  response.json().data.items.donationReferenceId;
const rowsOf = (t: TestApp, transactionIds: string[]) =>
  t.db
    .selectFrom('donations')
    .select(['reference_id', 'transaction_id', 'amount_cents'])
    .where('transaction_id', 'in', transactionIds)
    .execute();

describe('group commit of POST /donations', () => {
  it('writes concurrent donations in shared statements, one row each, each answered with its own row', async () => {
    const before = await groups(grouped);
    const bodies = Array.from({ length: 40 }, (_, i) => donationBody({ amount: `${i + 1}.00` }));
    const responses = await Promise.all(bodies.map((body) => post(grouped, body)));
    expect(responses.map((r) => r.statusCode)).toEqual(bodies.map(() => 200));

    const rows = await rowsOf(
      grouped,
      bodies.map((b) => b.transaction.id),
    );
    expect(rows).toHaveLength(40);
    const byTransaction = new Map(rows.map((row) => [row.transaction_id, row]));
    bodies.forEach((body, i) => {
      const row = byTransaction.get(body.transaction.id)!;
      expect(referenceOf(responses[i]!)).toBe(row.reference_id);
      expect(Number(row.amount_cents)).toBe((i + 1) * 100);
    });
    const after = await groups(grouped);
    expect(after.rows - before.rows).toBe(40);
    // Fewer statements than donations: at least one statement held several.
    expect(after.count - before.count).toBeLessThan(40);
  });

  it('a retry inside the same group gets the first row; the same id with another body gets 409', async () => {
    const before = await groups(grouped);
    const same = donationBody();
    const changed = donationBody();
    const [first, retry, original, conflicting] = await Promise.all([
      post(grouped, same),
      post(grouped, same),
      post(grouped, changed),
      post(grouped, { ...changed, transaction: { ...changed.transaction, amount: '99.00' } }),
    ]);
    const after = await groups(grouped);
    expect(after.count - before.count).toBe(1); // all four in one statement
    expect([first.statusCode, retry.statusCode]).toEqual([200, 200]);
    expect(referenceOf(retry)).toBe(referenceOf(first));
    expect(original.statusCode).toBe(200);
    expect(conflicting.statusCode).toBe(409);
    expect(conflicting.json().error.code).toBe('FUNDRAISER:CONFLICT');
    expect(conflicting.body).toContain(referenceOf(original));
    const rows = await rowsOf(grouped, [same.transaction.id, changed.transaction.id]);
    expect(rows).toHaveLength(2);
    expect(Number(rows.find((r) => r.transaction_id === changed.transaction.id)!.amount_cents)).toBe(2050);
  });

  it('a row the database refuses fails alone: the rest of its group is recorded, and it gets what it gets alone', async () => {
    const before = await groups(grouped);
    const good = Array.from({ length: 5 }, () => donationBody());
    const poison = donationBody({ transactionId: `poison-${randomUUID()}` });
    const responses = await Promise.all([...good, poison].map((body) => post(grouped, body)));
    expect((await groups(grouped)).count - before.count).toBe(1);
    expect(responses.slice(0, 5).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(
      await rowsOf(
        grouped,
        good.map((b) => b.transaction.id),
      ),
    ).toHaveLength(5);

    const alone = await post(single, donationBody({ transactionId: `poison-${randomUUID()}` }));
    const poisoned = responses[5]!;
    expect(poisoned.statusCode).toBe(alone.statusCode);
    expect(poisoned.json().error).toMatchObject({ code: alone.json().error.code, message: alone.json().error.message });
    expect(poisoned.body).not.toContain('poisoned row');
  });

  it('a statement failing for the whole group gives every request the answer it gets without group commit', async () => {
    const bodies = Array.from({ length: 4 }, () => donationBody({ transactionId: `poison-${randomUUID()}` }));
    const responses = await Promise.all(bodies.map((body) => post(grouped, body)));
    const alone = await post(single, donationBody({ transactionId: `poison-${randomUUID()}` }));
    for (const response of responses) {
      expect(response.statusCode).toBe(alone.statusCode);
      expect(response.json().error.code).toBe(alone.json().error.code);
    }
    expect(
      await rowsOf(
        grouped,
        bodies.map((b) => b.transaction.id),
      ),
    ).toHaveLength(0);
  });

  it('DONATION_GROUP_COMMIT=false writes each donation by its own statement, with the same answers', async () => {
    const before = await groups(single);
    const body = donationBody();
    const [first, retry] = await Promise.all([post(single, body), post(single, body)]);
    expect([first.statusCode, retry.statusCode]).toEqual([200, 200]);
    expect(referenceOf(retry)).toBe(referenceOf(first));
    expect(await groups(single)).toEqual(before);
    expect(await rowsOf(single, [body.transaction.id])).toHaveLength(1);
  });

  it('answers the donations waiting for their group when the app closes, without waiting out the window', async () => {
    // A window far longer than the test: only the close can write this group.
    const closing = await startTestApp({
      env: { DONATION_GROUP_COMMIT_MAX_WAIT_MS: '1000', DONATION_GROUP_COMMIT_MAX_ROWS: '1000' },
    });
    const bodies = [donationBody(), donationBody()];
    let answered = false;
    const pending = Promise.all(bodies.map((body) => post(closing, body))).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 300)); // both are waiting for their group by now
    await closing.app.close();
    expect(answered).toBe(true); // written by the close, not by the window's end
    const responses = await pending;
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await rowsOf(
      closing,
      bodies.map((b) => b.transaction.id),
    );
    expect(rows.map((r) => r.reference_id).sort()).toEqual(responses.map(referenceOf).sort());
    await closing.close();
  });
});
