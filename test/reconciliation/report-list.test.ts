import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, postBatch } from './support.js';

let t: TestApp;
const mine: string[] = [];
let theirs: string;
let reconciled: string;

beforeAll(async () => {
  t = await startTestApp();
  const entry = () => [{ bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-UNKNOWN'] }];
  for (let i = 0; i < 5; i += 1) mine.push(await postBatch(t, entry()));
  theirs = await postBatch(t, entry(), {
    channel: 'Registration Integration',
    fundraiserId: '10000003',
    as: t.registration,
  });
  // Reconcile everything posted so far, then one more batch stays accepted.
  await t.reconcile();
  reconciled = mine[4]!;
  mine.push(await postBatch(t, entry()));
}, 120_000);
afterAll(async () => t.close());

async function list(query: Record<string, string> = {}, as?: TestApp['storefront']) {
  const response = await t.get('/remittances', { query, as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items as {
    batches: { batchId: string; status: string; receivedAt: string; counts: { entries: number; pending: number } }[];
    nextCursor: string | null;
  };
}

describe("GET /remittances: a partner's list of its batches", () => {
  it("lists only the caller's batches, newest first, each as its report without entries", async () => {
    const page = await list();
    expect(page.batches.map((b) => b.batchId)).toEqual([...mine].reverse());
    expect(page.nextCursor).toBeNull();
    expect(page.batches[0]).not.toHaveProperty('entries');
    expect(page.batches[0]).toMatchObject({ status: 'accepted', counts: { entries: 1, pending: 1 } });
    expect(page.batches.find((b) => b.batchId === reconciled)).toMatchObject({
      status: 'completed_with_exceptions',
      counts: { entries: 1, pending: 0, exceptions: 1 },
    });
    const registration = await list({}, t.registration);
    expect(registration.batches.map((b) => b.batchId)).toEqual([theirs]);
  });

  it('pages with a cursor (every batch exactly once) and filters by status and time received', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list({ limit: '2', ...(cursor ? { cursor } : {}) });
      seen.push(...page.batches.map((b) => b.batchId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...mine].reverse());

    expect((await list({ status: 'accepted' })).batches.map((b) => b.batchId)).toEqual([mine[5]]);
    const all = (await list()).batches;
    const middle = all[2]!.receivedAt;
    const from = await list({ receivedFrom: middle });
    expect(from.batches.map((b) => b.batchId)).toEqual(all.slice(0, 3).map((b) => b.batchId));
    const to = await list({ receivedTo: middle });
    expect(to.batches.map((b) => b.batchId)).toEqual(all.slice(3).map((b) => b.batchId));
  });

  it('refuses bad parameters and a cursor issued for other filters with 400 naming them', async () => {
    const { nextCursor } = await list({ limit: '1' });
    const cases: [Record<string, string>, string][] = [
      [{ limit: '1001' }, 'query.limit'],
      [{ limit: '0' }, 'query.limit'],
      [{ status: 'done' }, 'query.status'],
      [{ receivedFrom: 'yesterday' }, 'query.receivedFrom'],
      [{ receivedTo: '2026-13-01' }, 'query.receivedTo'],
      [{ cursor: 'x.y' }, 'query.cursor'],
      [{ status: 'accepted', cursor: nextCursor! }, 'query.cursor'],
    ];
    for (const [query, parameter] of cases) {
      const response = await t.get('/remittances', { query });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'FUNDRAISER:VALIDATION' });
      expect(response.json().error.cause).toContain(parameter);
    }
    // A list's cursor is not a report's.
    const report = await t.get(`/remittances/${mine[0]}`, { query: { cursor: nextCursor! } });
    expect(report.statusCode).toBe(400);
    expect(report.json().error.cause).toContain('query.cursor');
  });
});
