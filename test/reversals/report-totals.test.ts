import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { cli, ok, type Cli } from '../cli/harness.js';
import { donation, partnerReversal, remit, report } from './support.js';

/**
 * Reversal totals in remittance reports and exports (docs/reconciliation.md): the partner's report of a batch states
 * what reversals took back of the donations it settled, before or after, and what is still owed back; the
 * operators' export states each entry's donations' reversed amount.
 */
let t: TestApp;
let run: Cli;
const refs = { before: '', after: '', whole: '', twice: '', untouched: '' };
let batchId = '';
let otherBatchId = '';

beforeAll(async () => {
  t = await startTestApp();
  run = cli({ database: t.database, now: t.clock.now, operator: 'finance' });
  refs.before = await donation(t, '20.00');
  refs.after = await donation(t, '10.00');
  refs.whole = await donation(t, '5.00');
  refs.twice = await donation(t, '10.00');
  refs.untouched = await donation(t, '7.00');
  await partnerReversal(t, refs.before, '5.00');
  await partnerReversal(t, refs.twice, '2.00');
  const settled = await remit(t, [
    { ref: 'TOT-1', amount: 15, ids: [refs.before] },
    { ref: 'TOT-2', amount: 10, ids: [refs.after] },
    { ref: 'TOT-3', amount: 5, ids: [refs.whole] },
    // One donation named twice counts once, in reconciliation as in the export.
    { ref: 'TOT-4', amount: 8, ids: [refs.twice, refs.twice] },
  ]);
  expect(settled.entries.map((e: { outcome: string }) => e.outcome)).toEqual([
    'matched',
    'matched',
    'matched',
    'matched',
  ]);
  batchId = settled.batchId;
  otherBatchId = (await remit(t, [{ ref: 'TOT-5', amount: 7, ids: [refs.untouched] }])).batchId;
}, 180_000);
afterAll(async () => t?.close());

describe('GET /remittances/{batchId}: reversal totals', () => {
  it('states what was reversed before settlement, and nothing owed back', async () => {
    expect(await report(t, batchId)).toMatchObject({ reversedAmount: 7, owedBack: 0, totalAmount: 38 });
  });

  it('adds reversals after settlement as owed back, until finance marks them repaid', async () => {
    const after = await partnerReversal(t, refs.after, '4.00');
    expect(after.owedBack).toBe(true);
    const whole = await ok(
      run,
      'donations',
      'reverse',
      refs.whole,
      '--amount',
      '5',
      '--reason',
      'fraudulent',
      '--note',
      'stolen card',
    );
    expect(await report(t, batchId)).toMatchObject({ reversedAmount: 16, owedBack: 9 });

    await ok(run, 'reversals', 'repaid', whole.reversalId, '--note', 'EFT 17');
    const read = await report(t, batchId);
    expect(read).toMatchObject({ reversedAmount: 16, owedBack: 4 });
    // The same on every page of the report: they describe the batch, whatever the page or filter.
    const page = await t.get(`/remittances/${batchId}`, { query: { limit: '1', outcome: 'matched' } });
    expect(page.json().data.items).toMatchObject({ reversedAmount: 16, owedBack: 4 });
    expect(await report(t, otherBatchId)).toMatchObject({ reversedAmount: 0, owedBack: 0 });

    // Another partner reads nothing of it.
    expect((await t.get(`/remittances/${batchId}`, { as: t.registration })).statusCode).toBe(404);
  });
});

describe('remittances export: each entry’s reversed amount', () => {
  it('adds reversedAud to JSON and to the CSV across batches; one batch alone stays the partner’s file', async () => {
    const json = await ok(run, 'remittances', 'export', '--batch', batchId, '--format', 'json');
    expect(
      json.map((e: { bankReferenceId: string; reversedAud: string }) => [e.bankReferenceId, e.reversedAud]),
    ).toEqual([
      ['TOT-1', '5.00'],
      ['TOT-2', '4.00'],
      ['TOT-3', '5.00'],
      ['TOT-4', '2.00'],
    ]);

    const across = await run('remittances', 'export', '--partner', 'Demo Storefront Partner');
    const rows = parse<Record<string, string>>(across.stdout, { columns: true });
    expect(Object.keys(rows[0]!).at(-1)).toBe('reversedAud');
    expect(Object.fromEntries(rows.map((r) => [r.bankReferenceId, r.reversedAud]))).toEqual({
      'TOT-1': '5.00',
      'TOT-2': '4.00',
      'TOT-3': '5.00',
      'TOT-4': '2.00',
      'TOT-5': '0.00',
    });

    const partnersFile = await run('remittances', 'export', '--batch', batchId);
    expect(partnersFile.stdout.split('\r\n')[0]).toBe(
      'index,bankReferenceId,amount,donationIds,outcome,detail,fundsReceived',
    );
  });
});
