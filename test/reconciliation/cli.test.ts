import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReconciliationWorker } from '../../src/services/reconciliation/worker.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch } from './support.js';

/** Operators' remittance commands, on batches posted through the API. */
let t: TestApp;
let run: Cli;
let workDir: string;
const STOREFRONT = 'Demo Storefront Partner';
const batches: { reconciled: string; pending: string; other: string } = { reconciled: '', pending: '', other: '' };
let settledDonation: string;
let unsettledDonation: string;

beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now, operator: 'ops-anna' });
  workDir = mkdtempSync(join(tmpdir(), 'fx-recon-cli-'));
  settledDonation = await donate(t, '10.00');
  unsettledDonation = await donate(t, '2.00');
  batches.reconciled = await postBatch(t, [
    { bankReferenceId: 'BANK-CLI-1', amount: 10, donationIds: [settledDonation] },
    { bankReferenceId: 'BANK-CLI-2', amount: 2.5, donationIds: [unsettledDonation] },
    { bankReferenceId: 'BANK-CLI-3', amount: 1, donationIds: ['DON-NOWHERE'] },
  ]);
  // Another partner naming a Storefront donation: foreign_donation for them.
  batches.other = await postBatch(t, [{ bankReferenceId: 'BANK-CLI-R', amount: 10, donationIds: [settledDonation] }], {
    channel: 'Registration Integration',
    as: t.registration,
  });
  await t.reconcile();
  batches.pending = await postBatch(t, [
    { bankReferenceId: bankReference(), amount: 4, donationIds: [await donate(t, '4.00')] },
  ]);
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  await t.close();
});

describe('remittances list / show', () => {
  it('lists batches newest first, filtered by partner, status and date', async () => {
    const all = await ok(run, 'remittances', 'list');
    expect(all.map((b: { batchId: string }) => b.batchId)).toEqual([
      batches.pending,
      batches.other,
      batches.reconciled,
    ]);
    expect(all[2]).toMatchObject({
      partnerName: STOREFRONT,
      status: 'completed_with_exceptions',
      entries: 3,
      totalAud: '13.50',
      exceptions: 2,
      attempts: 1,
      outcomeCounts: { matched: 1, amount_mismatch: 1, unknown_donation: 1 },
    });
    expect(
      (await ok(run, 'remittances', 'list', '--partner', STOREFRONT)).map((b: { batchId: string }) => b.batchId),
    ).toEqual([batches.pending, batches.reconciled]);
    expect(
      (await ok(run, 'remittances', 'list', '--status', 'accepted')).map((b: { batchId: string }) => b.batchId),
    ).toEqual([batches.pending]);
    expect(await ok(run, 'remittances', 'list', '--from', '2999-01-01')).toEqual([]);
    const wrong = await run('remittances', 'list', '--status', 'done');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Allowed choices are accepted, processing, completed, completed_with_exceptions');
  });

  it('shows a batch with its counts, jobs and the outcome of each entry', async () => {
    const detail = await ok(run, 'remittances', 'show', batches.reconciled);
    expect(detail).toMatchObject({
      batchId: batches.reconciled,
      status: 'completed_with_exceptions',
      counts: { entries: 3, matched: 1, exceptions: 2 },
      jobs: { completed: 1 },
    });
    expect(detail.entries.map((e: { outcome: string }) => e.outcome)).toEqual([
      'matched',
      'amount_mismatch',
      'unknown_donation',
    ]);
    const exceptionsOnly = await ok(run, 'remittances', 'show', batches.reconciled, '--exceptions');
    expect(exceptionsOnly.entries.map((e: { index: number }) => e.index)).toEqual([1, 2]);
    const text = await run('remittances', 'show', batches.reconciled);
    expect(text.stdout).toContain('completed_with_exceptions');
    expect(text.stdout).toContain('amount_mismatch 1, unknown_donation 1');
    expect(text.stdout).toContain('Unknown donation ids: DON-NOWHERE.');
  });

  it('says plainly when a batch id is wrong', async () => {
    const unknown = await run('remittances', 'show', crypto.randomUUID());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No remittance batch with id');
    const malformed = await run('remittances', 'show', 'batch-1');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('"batch-1" is not a batch id');
  });
});

describe('remittances exceptions / export', () => {
  it('lists every exception across batches and partners, optionally of one outcome', async () => {
    const all = await ok(run, 'remittances', 'exceptions');
    expect(all.map((e: { bankReferenceId: string; outcome: string }) => [e.bankReferenceId, e.outcome])).toEqual([
      ['BANK-CLI-R', 'foreign_donation'],
      ['BANK-CLI-2', 'amount_mismatch'],
      ['BANK-CLI-3', 'unknown_donation'],
    ]);
    const unknown = await ok(
      run,
      'remittances',
      'exceptions',
      '--outcome',
      'unknown_donation',
      '--partner',
      STOREFRONT,
    );
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({
      batchId: batches.reconciled,
      index: 2,
      amountAud: '1.00',
      donationIds: ['DON-NOWHERE'],
      detail: 'Unknown donation ids: DON-NOWHERE.',
    });
  });

  it('exports a batch as CSV to stdout, and exceptions as JSON to a file', async () => {
    const csv = await run('remittances', 'export', '--batch', batches.reconciled);
    expect(csv.code).toBe(0);
    // Exactly the partner's file (GET /remittances/{batchId} with Accept: text/csv): the same code writes it.
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('index,bankReferenceId,amount,donationIds,outcome,detail,fundsReceived');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(`0,BANK-CLI-1,10.00,${settledDonation},matched,"Settled 1 donation, 10.00 AUD.",false`);
    const across = await run('remittances', 'export', '--partner', STOREFRONT, '--exceptions');
    expect(across.stdout.split('\r\n')[0]).toBe(
      'batchId,receivedAt,partner,environment,fundraiserId,batchStatus,index,bankReferenceId,amount,donationIds,outcome,detail,fundsReceived,reversedAud',
    );

    const file = join(workDir, 'exceptions.json');
    const exported = await run('remittances', 'export', '--exceptions', '--format', 'json', '--output', file);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`Wrote 3 entries to ${file}`);
    const rows = JSON.parse(readFileSync(file, 'utf8'));
    expect(rows.map((r: { outcome: string }) => r.outcome)).toEqual([
      'foreign_donation',
      'amount_mismatch',
      'unknown_donation',
    ]);
  });
});

describe('remittances retry / queue', () => {
  it('shows a dead-lettered batch, retries it (audited), and the service then reconciles it', async () => {
    const failing = new ReconciliationWorker(t.jobQueue, t.database, {
      checkpoint: async () => {
        throw new Error('ledger unavailable');
      },
    });
    await failing.runPending();
    const queue = await ok(run, 'remittances', 'queue');
    expect(queue.deadLetteredBatches).toEqual([batches.pending]);
    expect(queue.queues['remittance-reconciliation']).toMatchObject({ failed: 1 });
    const listed = await run('remittances', 'list', '--dead-lettered');
    expect(listed.stdout).toContain('DEAD-LETTERED: ledger unavailable');

    const retried = await ok(run, 'remittances', 'retry', batches.pending);
    expect(retried.batchId).toBe(batches.pending);
    const [entry] = await ok(run, 'audit', 'list', '--action', 'remittance.retry');
    expect(entry).toMatchObject({ actor: 'ops-anna', action: 'remittance.retry', subject: batches.pending });
    await t.reconcile();
    expect(await ok(run, 'remittances', 'show', batches.pending)).toMatchObject({
      status: 'completed',
      deadLetteredAt: null,
      attempts: 7,
    });

    const again = await run('remittances', 'retry', batches.pending);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already reconciled (completed)');
  });
});

describe('donations show: the settlement of a donation', () => {
  it('shows how a settled donation was settled, and says when one is not', async () => {
    const settled = await ok(run, 'donations', 'show', settledDonation);
    expect(settled.settlement).toMatchObject({
      bankReferenceId: 'BANK-CLI-1',
      batchId: batches.reconciled,
      entryIndex: 0,
      amountCents: 1000,
      amountAud: '10.00',
    });
    const text = await run('donations', 'show', settledDonation);
    expect(text.stdout).toContain(`10.00 AUD by bank reference BANK-CLI-1 (batch ${batches.reconciled}, entry 0)`);
    const unsettled = await ok(run, 'donations', 'show', unsettledDonation);
    expect(unsettled.settlement).toBeNull();
  });
});
