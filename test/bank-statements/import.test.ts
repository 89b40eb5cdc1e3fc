import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importStatement } from '../../src/services/bank-statements/import-statement.js';
import { ImportRejectedError } from '../../src/services/operators/operator-errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { camt053, dayOf, expectedBatch, importTraces, operatorOf, settingsOf, unique } from './support.js';

/** camt.053 imports: automatic matches, idempotent and overlapping files, a bad file refused whole. */
describe('bank statement import (camt.053)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });
  const load = (fileName: string, content: string) =>
    importStatement(operatorOf(t), settingsOf(t), { fileName, content });

  it('matches a credit line carrying an entry’s bank reference and amount at once, and tells the partner', async () => {
    const [refA, refB] = [unique('PAY-'), unique('PAY-')];
    const batchId = await expectedBatch(t, [
      { ref: refA, amount: '25.00' },
      { ref: refB, amount: '40.00' },
    ]);
    const file = camt053([
      { amount: '25.00', booked: dayOf(t), bankRef: unique('BK'), endToEndId: refA, payer: 'Storefront App Pty Ltd' },
      { amount: '40.00', booked: dayOf(t), bankRef: unique('BK'), ustrd: [`REMITTANCE ${refB.toLowerCase()}`] },
      { amount: '12.00', booked: dayOf(t), bankRef: unique('BK'), credit: false, ustrd: ['BANK FEES'] },
    ]);
    const result = await load('statement.xml', file);
    expect(result).toMatchObject({ format: 'camt053', linesRead: 3, linesAdded: 3, duplicates: 0, automatic: 2 });

    const report = (await t.get(`/remittances/${batchId}`)).json().data.items;
    expect(report.entries.map((e: { fundsReceived: boolean }) => e.fundsReceived)).toEqual([true, true]);
    expect(report.entries[0].fundsReceivedAt).toBe(t.clock.now().toISOString());
    const csv = await t.get(`/remittances/${batchId}`, { headers: { accept: 'text/csv' } });
    expect(csv.body.split('\r\n')[0]).toMatch(/,fundsReceived$/);
    expect(csv.body.split('\r\n')[1]).toMatch(/,true$/);

    const events = (await t.get('/events', { query: { limit: '100' } })).json().data.items.events as {
      type: string;
      data: { batchId: string; entries: { index: number; fundsReceived: boolean }[] };
    }[];
    const funds = events.filter((e) => e.type === 'remittance.funds_received' && e.data.batchId === batchId);
    expect(funds).toHaveLength(1);
    expect(funds[0]!.data.entries.map((e) => [e.index, e.fundsReceived])).toEqual([
      [0, true],
      [1, true],
    ]);
  });

  it('adds nothing for the same file twice, and only the new lines of an overlapping statement', async () => {
    const ref = unique('OVR-');
    const [k1, k2, k3] = [unique('BK'), unique('BK'), unique('BK')];
    const first = camt053(
      [
        { amount: '5.00', booked: dayOf(t), bankRef: k1, ustrd: ['INTEREST'] },
        { amount: '6.00', booked: dayOf(t), bankRef: k2, ustrd: [ref] },
      ],
      { statementId: 'A' },
    );
    expect(await load('a.xml', first)).toMatchObject({ linesAdded: 2, alreadyImported: null });
    const again = await load('a-copy.xml', first);
    expect(again).toMatchObject({ linesAdded: 0, duplicates: 2 });
    expect(again.alreadyImported?.by).toBe('finance@example.org');

    const overlapping = camt053(
      [
        { amount: '6.00', booked: dayOf(t), bankRef: k2, ustrd: [ref] },
        { amount: '7.00', booked: dayOf(t), bankRef: k3, ustrd: ['NEW'] },
      ],
      { statementId: 'B' },
    );
    expect(await load('b.xml', overlapping)).toMatchObject({ linesRead: 2, linesAdded: 1, duplicates: 1 });
  });

  it('refuses a bad file whole, naming the line and the field of every problem', async () => {
    const before = await t.db.selectFrom('bank_lines').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const file = camt053([
      { amount: '1.00', booked: dayOf(t), bankRef: unique('BK') },
      { amount: '12.345', booked: dayOf(t), bankRef: unique('BK') },
      { amount: '3.00', currency: 'NZD', booked: '2026-02-30', value: dayOf(t), bankRef: unique('BK') },
    ]);
    const error = await load('bad.xml', file).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ImportRejectedError);
    const lineOf = (n: number) => file.split('\n').findIndex((l, i) => i >= 0 && l.includes('<Ntry>') && --n < 0) + 1;
    expect((error as ImportRejectedError).problems).toEqual([
      { row: `line ${lineOf(1)}`, field: 'Ntry/Amt', message: expect.stringContaining('12.345') },
      { row: `line ${lineOf(2)}`, field: 'Ntry/Amt/@Ccy', message: 'must be AUD; got "NZD"' },
      { row: `line ${lineOf(2)}`, field: 'Ntry/BookgDt', message: expect.stringContaining('2026-02-30') },
    ]);
    const after = await t.db.selectFrom('bank_lines').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
  });

  it('names the line of XML that is not well-formed, and refuses a DOCTYPE', async () => {
    const broken = '<?xml version="1.0"?>\n<Document>\n  <BkToCstmrStmt>\n</Document>\n';
    const error = (await load('broken.xml', broken).catch((err: unknown) => err)) as ImportRejectedError;
    expect(error.problems[0]).toMatchObject({ row: 'line 4', field: '(xml)' });
    const dtd = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "a">]><Document/>';
    const refused = (await load('dtd.xml', dtd).catch((err: unknown) => err)) as ImportRejectedError;
    expect(refused.problems[0]).toMatchObject({ row: 'file', message: 'holds a DOCTYPE, which is refused' });
  });

  it('leaves pending entries out', async () => {
    const file = camt053([
      { amount: '8.00', booked: dayOf(t), bankRef: unique('BK'), status: 'PDNG' },
      { amount: '9.00', booked: dayOf(t), bankRef: unique('BK') },
    ]);
    expect(await load('pending.xml', file)).toMatchObject({ linesRead: 1, linesAdded: 1, skipped: 1 });
  });

  it('refuses a file whose only entries are pending, as a header-only CSV is, and stores nothing', async () => {
    // An open suggestion beforehand: a matching run would write it again under a new id.
    const ref = unique('PND-');
    await expectedBatch(t, [{ ref, amount: '50.00' }]);
    await load('near.xml', camt053([{ amount: '50.40', booked: dayOf(t), bankRef: unique('BK'), ustrd: [ref] }]));
    const before = await importTraces(t);
    expect(before.openSuggestions.length).toBeGreaterThan(0);
    const noLines = [{ row: 'file', field: '(file)', message: 'holds no bank lines' }];
    for (const status of ['PDNG', '<Cd>PDNG</Cd>']) {
      const file = camt053([
        { amount: '8.00', booked: dayOf(t), bankRef: unique('BK'), status },
        { amount: '9.00', booked: dayOf(t), bankRef: unique('BK'), status },
      ]);
      const error = await load(`pending-${status.length}.xml`, file).catch((err: unknown) => err);
      expect(error, status).toBeInstanceOf(ImportRejectedError);
      expect((error as ImportRejectedError).problems, status).toEqual(noLines);
    }
    const headerOnly = await importStatement(operatorOf(t), settingsOf(t), {
      fileName: 'header.csv',
      content: 'Date,Narrative,Debit Amount,Credit Amount,Balance,Categories,Serial,Bank Account\n',
      preset: 'westpac',
    }).catch((err: unknown) => err);
    expect((headerOnly as ImportRejectedError).problems).toEqual(noLines);
    expect(await importTraces(t)).toEqual(before);
  });
});
