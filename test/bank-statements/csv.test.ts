import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importStatement, type StatementImport } from '../../src/services/bank-statements/import-statement.js';
import { ImportRejectedError } from '../../src/services/operators/operator-errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { dayOf, expectedBatch, operatorOf, settingsOf, unique } from './support.js';

/**
 * CSV exports (docs/bank-statements.md, "CSV"): the presets of CommBank, Westpac, ANZ and NAB as their internet
 * banking writes them, a mapping file for any other bank, overlapping exports, and bad files refused whole.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 180_000);
afterAll(() => t?.close());

const load = (request: Omit<StatementImport, 'content'> & { content: string }) =>
  importStatement(operatorOf(t), settingsOf(t), request);

/** YYYY-MM-DD as DD/MM/YYYY, and as NAB's DD-Mon-YY. */
const dmy = (date: string) => date.split('-').reverse().join('/');
const nabDate = (date: string) => {
  const [y, m, d] = date.split('-');
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m) - 1];
  return `${d}-${month}-${y!.slice(2)}`;
};

async function received(batchId: string): Promise<boolean[]> {
  const report = (await t.get(`/remittances/${batchId}`)).json().data.items;
  return report.entries.map((e: { fundsReceived: boolean }) => e.fundsReceived);
}

describe('CSV presets of the four major Australian banks', () => {
  it('commbank: no header; date, signed amount, description, balance', async () => {
    const ref = unique('CBA-');
    const batchId = await expectedBatch(t, [{ ref, amount: '31.10' }]);
    const content =
      `${dmy(dayOf(t))},"+31.10","DIRECT CREDIT 401234 STOREFRONT ${ref}","+1031.10"\r\n` +
      `${dmy(dayOf(t))},"-4.00","ACCOUNT FEE","+1027.10"\r\n`;
    const result = await load({ fileName: 'CSVData.csv', content, preset: 'commbank', account: '062000 12345678' });
    expect(result).toMatchObject({ format: 'csv', layout: 'commbank', linesRead: 2, linesAdded: 2, automatic: 1 });
    expect(await received(batchId)).toEqual([true]);
    const line = await t.db
      .selectFrom('bank_lines')
      .selectAll()
      .where('statement_id', '=', result.statementId!)
      .orderBy('line_no')
      .execute();
    expect(line.map((l) => [l.line_no, l.account, l.credit, Number(l.amount_cents)])).toEqual([
      [1, '062000 12345678', true, 3110],
      [2, '062000 12345678', false, 400],
    ]);
  });

  it('westpac: a header, separate debit and credit columns, the account', async () => {
    const ref = unique('WBC-');
    const batchId = await expectedBatch(t, [{ ref, amount: '1250.00' }]);
    const content = [
      'Bank Account,Date,Narrative,Debit Amount,Credit Amount,Balance,Categories,Serial',
      `032000123456,${dmy(dayOf(t))},"DEPOSIT ONLINE ${ref} STOREFRONT APP",,"1,250.00",5000.00,DEP,`,
      `032000123456,${dmy(dayOf(t))},WITHDRAWAL MOBILE 123,12.50,,3750.00,PAYMENT,`,
    ].join('\n');
    const result = await load({ fileName: 'Data_export.csv', content, preset: 'westpac' });
    expect(result).toMatchObject({ layout: 'westpac', linesRead: 2, automatic: 1 });
    expect(await received(batchId)).toEqual([true]);
  });

  it('anz: no header; date, signed amount, description', async () => {
    const ref = unique('ANZ-');
    const batchId = await expectedBatch(t, [{ ref, amount: '77.70' }]);
    const content = `${dmy(dayOf(t))},77.70,"TRANSFER FROM STOREFRONT APP ${ref}"\n${dmy(dayOf(t))},-9.99,"VISA DEBIT"\n`;
    const result = await load({ fileName: 'ANZ.csv', content, preset: 'anz', account: 'ANZ 1234' });
    expect(result).toMatchObject({ layout: 'anz', linesRead: 2, automatic: 1 });
    expect(await received(batchId)).toEqual([true]);
  });

  it('nab: a header, DD-Mon-YY dates, the type and details joined as the description', async () => {
    const ref = unique('NAB-');
    const batchId = await expectedBatch(t, [{ ref, amount: '64.00' }]);
    const content = [
      'Date,Amount,Account Number,,Transaction Type,Transaction Details,Balance,Category,Merchant Name',
      `${nabDate(dayOf(t))},64.00,083000111222,,INTER-BANK CREDIT,STOREFRONT APP ${ref},164.00,Income,`,
    ].join('\n');
    const result = await load({ fileName: 'TransactionHistory.csv', content, preset: 'nab' });
    expect(result).toMatchObject({ layout: 'nab', linesRead: 1, automatic: 1 });
    expect(await received(batchId)).toEqual([true]);
    const [line] = await t.db
      .selectFrom('bank_lines')
      .select(['account', 'description', 'booked_on'])
      .where('statement_id', '=', result.statementId!)
      .execute();
    expect(line).toEqual({
      account: '083000111222',
      description: `INTER-BANK CREDIT STOREFRONT APP ${ref}`,
      booked_on: dayOf(t),
    });
  });
});

describe('CSV through a mapping file, overlaps and bad files', () => {
  const mapping = {
    name: 'credit-union',
    header: true,
    delimiter: ';',
    dateFormat: 'YYYY-MM-DD',
    columns: { date: 'Posted', amount: 'Amount', description: ['Memo'], reference: 'Ref', bankReference: 'Id' },
  };

  it('reads any layout a mapping file describes; the bank’s id dedupes an overlapping export', async () => {
    const ref = unique('CU-');
    const batchId = await expectedBatch(t, [{ ref, amount: '15.00' }]);
    const mappingFile = { fileName: 'cu.json', content: JSON.stringify(mapping) };
    const first = `Id;Posted;Amount;Memo;Ref\nT1-${ref};${dayOf(t)};15.00;Payment;${ref}\n`;
    expect(await load({ fileName: 'cu-1.csv', content: first, mapping: mappingFile, account: 'CU' })).toMatchObject({
      layout: 'credit-union',
      linesAdded: 1,
      automatic: 1,
    });
    expect(await received(batchId)).toEqual([true]);
    const second = `${first}T2-${ref};${dayOf(t)};3.00;Interest;\n`;
    expect(await load({ fileName: 'cu-2.csv', content: second, mapping: mappingFile, account: 'CU' })).toMatchObject({
      linesRead: 2,
      linesAdded: 1,
      duplicates: 1,
      automatic: 0,
    });
  });

  it('dedupes lines without a bank id by account, date, amount and description, counting equal lines', async () => {
    const day = dmy(dayOf(t, -1));
    const gift = `${day},20.00,"GIFT ${unique('NOREF')}"`;
    const first = `${gift}\n${gift}\n`;
    expect(await load({ fileName: 'anz-a.csv', content: first, preset: 'anz', account: 'A' })).toMatchObject({
      linesAdded: 2,
    });
    // The next export repeats both equal gifts and adds a third one of that day.
    const next = `${gift}\n${gift}\n${gift}\n`;
    expect(await load({ fileName: 'anz-b.csv', content: next, preset: 'anz', account: 'A' })).toMatchObject({
      linesRead: 3,
      linesAdded: 1,
      duplicates: 2,
    });
  });

  it('refuses a bad export whole, naming each line and field', async () => {
    const content = [
      'Bank Account,Date,Narrative,Debit Amount,Credit Amount',
      `1,${dmy(dayOf(t))},OK,,5.00`,
      `1,31/02/2026,BAD DATE,,5.00`,
      `1,${dmy(dayOf(t))},BAD AMOUNT,,5.0.0`,
      `1,${dmy(dayOf(t))},BOTH,1.00,2.00`,
    ].join('\n');
    const error = (await load({ fileName: 'bad.csv', content, preset: 'westpac' }).catch(
      (e: unknown) => e,
    )) as ImportRejectedError;
    expect(error).toBeInstanceOf(ImportRejectedError);
    expect(error.problems).toEqual([
      { row: 'line 3', field: 'date', message: 'must be a date as DD/MM/YYYY; got "31/02/2026"' },
      { row: 'line 4', field: 'credit', message: expect.stringContaining('"5.0.0"') },
      { row: 'line 5', field: 'credit', message: 'or debit must hold a non-zero amount, and only one of them' },
    ]);
    const stored = await t.db.selectFrom('bank_statements').select('id').where('file_name', '=', 'bad.csv').execute();
    expect(stored).toEqual([]);
  });

  it('names a header column the preset needs and the file lacks', async () => {
    const content = 'Date,Amount\n01/01/2026,1.00\n';
    const error = (await load({ fileName: 'x.csv', content, preset: 'westpac' }).catch(
      (e: unknown) => e,
    )) as ImportRejectedError;
    expect(error.problems[0]).toMatchObject({ row: 'line 1', field: 'account' });
    expect(error.problems.map((p) => p.field)).toEqual(['account', 'description', 'debit', 'credit']);
  });

  it('refuses a mapping file naming each wrong field, and a CSV without a layout', async () => {
    const bad = { ...mapping, dateFormat: 'D/M/Y', columns: { date: 'Posted', description: ['Memo'] } };
    const error = (await load({
      fileName: 'x.csv',
      content: 'a\n',
      mapping: { fileName: 'bad.json', content: JSON.stringify(bad) },
    }).catch((e: unknown) => e)) as ImportRejectedError;
    expect(error.file).toBe('bad.json');
    expect(error.problems.map((p) => p.field)).toContain('dateFormat');
    const notJson = (await load({
      fileName: 'x.csv',
      content: 'a\n',
      mapping: { fileName: 'bad.json', content: '{' },
    }).catch((e: unknown) => e)) as ImportRejectedError;
    expect(notJson.problems[0]).toMatchObject({ row: 'file', message: expect.stringMatching(/^is not JSON/) });
    await expect(load({ fileName: 'x.csv', content: 'a,b\n' })).rejects.toThrow(/needs --preset/);
  });
});
