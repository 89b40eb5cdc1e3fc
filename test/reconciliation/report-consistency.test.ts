import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOMES } from '../../src/domain/remittance-outcomes.js';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, insertDonations, partnerOf, postBatch } from './support.js';

/** Big enough that reconciling takes a while, small enough for the embedded database in a test. */
const ENTRIES = 3000;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { MAX_REMITTANCE_ENTRIES: String(ENTRIES) } });
}, 120_000);
afterAll(async () => t.close());

interface Report {
  status: string;
  receivedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  counts: { entries: number; pending: number; matched: number; exceptions: number; byOutcome: Record<string, number> };
  entries: { index: number; outcome: string | null }[];
  nextCursor: string | null;
}

/** Every invariant one report must satisfy on its own (docs/decisions/0033-remittance-reports-from-one-snapshot.md). */
function assertConsistent(r: Report) {
  const decided = OUTCOMES.reduce((sum, o) => sum + r.counts.byOutcome[o]!, 0);
  expect(r.counts.pending + decided).toBe(r.counts.entries);
  expect(r.counts.entries).toBe(ENTRIES);
  expect(r.entries).toHaveLength(ENTRIES);
  expect(r.nextCursor).toBeNull();
  // The entries of the same read say exactly what the counts say.
  expect(r.entries.filter((e) => e.outcome === null)).toHaveLength(r.counts.pending);
  for (const o of OUTCOMES) expect(r.entries.filter((e) => e.outcome === o)).toHaveLength(r.counts.byOutcome[o]!);
  expect(r.counts.exceptions).toBe(decided - r.counts.matched);
  if (r.status === 'accepted') expect(decided).toBe(0);
  const completed = r.status === 'completed' || r.status === 'completed_with_exceptions';
  expect(completed).toBe(r.counts.pending === 0 && r.completedAt !== null);
  if (r.status !== 'accepted') expect(r.startedAt).not.toBeNull();
  if (r.startedAt) expect(Date.parse(r.receivedAt)).toBeLessThanOrEqual(Date.parse(r.startedAt));
  if (r.startedAt && r.completedAt) expect(Date.parse(r.startedAt)).toBeLessThanOrEqual(Date.parse(r.completedAt));
}

describe('a report read while its batch reconciles never contradicts itself', () => {
  it('agrees with itself on every read, and completedAt is not before the last read that saw processing', async () => {
    const owner = await partnerOf(t.db, t.storefront.clientId);
    const donations = await insertDonations(t.db, owner, ENTRIES, 1000);
    const batchId = await postBatch(
      t,
      donations.map((id, i) => ({
        bankReferenceId: bankReference(),
        // Every tenth entry is short by a cent: a mix of matched and exceptions.
        amount: i % 10 === 0 ? 9.99 : 10,
        donationIds: [id],
      })),
    );
    const reads: Report[] = [];
    let lastProcessingSentAt = 0;
    const read = async () => {
      const sentAt = Date.now();
      const response = await t.get(`/remittances/${batchId}`, { query: { limit: String(ENTRIES) } });
      expect(response.statusCode, response.body).toBe(200);
      const r = response.json().data.items as Report;
      assertConsistent(r);
      if (r.status === 'processing') lastProcessingSentAt = Math.max(lastProcessingSentAt, sentAt);
      reads.push(r);
      return r;
    };

    await read();
    // The checkpoint reads once while the batch is committed as processing, so that state is always seen.
    const worker = new ReconciliationWorker(t.jobQueue, t.database, {
      checkpoint: async (stage) => void (stage === 'processing' && (await read())),
    });
    let done = false;
    const reconciling = worker.runPending().finally(() => (done = true));
    while (!done) await read();
    await reconciling;
    const final = await read();

    expect(reads.some((r) => r.status === 'processing')).toBe(true);
    expect(reads.length).toBeGreaterThan(3);
    expect(final.status).toBe('completed_with_exceptions');
    expect(final.counts).toMatchObject({ pending: 0, matched: ENTRIES * 0.9, exceptions: ENTRIES * 0.1 });
    expect(Date.parse(final.completedAt!)).toBeGreaterThanOrEqual(lastProcessingSentAt);
    // Once seen completed, it stays completed with the same times.
    const completedReads = reads.filter((r) => r.completedAt !== null);
    expect(new Set(completedReads.map((r) => `${r.startedAt} ${r.completedAt}`)).size).toBe(1);
  }, 180_000);
});
