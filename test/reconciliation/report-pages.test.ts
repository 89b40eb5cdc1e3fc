import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBatchEntries } from '../../src/infrastructure/repositories/batch-entries.js';
import { entriesCsv } from '../../src/services/reconciliation/entry-export.js';
import { openRemittanceCsv } from '../../src/services/reconciliation/remittance-csv.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { bankReference, donate, postBatch } from './support.js';

let t: TestApp;
let batchId: string;
/** Index → outcome of the reconciled batch below. */
const expected: string[] = [];

// 30 entries: every third matches (10.00 for a 10.00 donation), every third names an unknown donation, the rest
// are a cent short (amount_mismatch).
beforeAll(async () => {
  t = await startTestApp();
  const entries = [];
  for (let i = 0; i < 30; i += 1) {
    const kind = i % 3;
    const donation = kind === 1 ? `DON-NOPE-${i}` : await donate(t, '10.00');
    entries.push({ bankReferenceId: bankReference(), amount: kind === 2 ? 9.99 : 10, donationIds: [donation] });
    expected.push(['matched', 'unknown_donation', 'amount_mismatch'][kind]!);
  }
  batchId = await postBatch(t, entries);
  await t.reconcile();
}, 120_000);
afterAll(async () => t.close());

async function page(query: Record<string, string>, id = batchId) {
  const response = await t.get(`/remittances/${id}`, { query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items as {
    counts: { entries: number; exceptions: number };
    entries: { index: number; outcome: string }[];
    nextCursor: string | null;
  };
}

/** Follows nextCursor from the first page to the last; returns every entry's index in the order received. */
async function allPages(query: Record<string, string>) {
  const indexes: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const p = await page({ ...query, ...(cursor ? { cursor } : {}) });
    expect(p.counts).toMatchObject({ entries: 30, exceptions: 20 });
    indexes.push(...p.entries.map((e) => e.index));
    cursor = p.nextCursor;
    pages += 1;
  } while (cursor !== null);
  return { indexes, pages };
}

const indexesOf = (pick: (outcome: string) => boolean) =>
  expected.flatMap((outcome, index) => (pick(outcome) ? [index] : []));

describe('GET /remittances/{batchId}: pages and filters', () => {
  it('pages with a filter and a cursor return every matching entry exactly once, in index order', async () => {
    const exceptions = await allPages({ outcome: 'exceptions', limit: '3' });
    expect(exceptions.indexes).toEqual(indexesOf((o) => o !== 'matched'));
    expect(exceptions.pages).toBe(7);
    const unknown = await allPages({ outcome: 'unknown_donation', limit: '4' });
    expect(unknown.indexes).toEqual(indexesOf((o) => o === 'unknown_donation'));
    const all = await allPages({ limit: '7' });
    expect(all.indexes).toEqual(expected.map((_, i) => i));
  });

  it('defaults to 1,000 entries a page: one page, nextCursor null, counts of the whole batch', async () => {
    const p = await page({ outcome: 'matched' });
    expect(p.entries.map((e) => e.outcome)).toEqual(Array(10).fill('matched'));
    expect(p.nextCursor).toBeNull();
    expect(p.counts).toMatchObject({ entries: 30, exceptions: 20 });
  });

  it('refuses a bad limit, cursor or outcome, and a cursor of another batch or filter, with 400 naming it', async () => {
    const other = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-A'] }]);
    const first = await page({ outcome: 'exceptions', limit: '2' });
    const cursor = first.nextCursor!;
    const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
    const cases: [Record<string, string>, string, string?][] = [
      [{ limit: '0' }, 'query.limit'],
      [{ limit: '10001' }, 'query.limit'],
      [{ limit: 'ten' }, 'query.limit'],
      [{ outcome: 'pending' }, 'query.outcome'],
      [{ cursor: 'not-a-cursor' }, 'query.cursor'],
      [{ outcome: 'exceptions', cursor: tampered }, 'query.cursor'],
      [{ cursor }, 'query.cursor'], // another filter (none)
      [{ outcome: 'matched', cursor }, 'query.cursor'], // another filter
      [{ outcome: 'exceptions', cursor }, 'query.cursor', other], // another batch
    ];
    for (const [query, parameter, id] of cases) {
      const response = await t.get(`/remittances/${id ?? batchId}`, { query });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json()).toMatchObject({ method: '/remittance', error: { code: 'FUNDRAISER:VALIDATION' } });
      expect(response.json().error.cause).toContain(parameter);
    }
    // The same cursor with its own batch and filter works.
    expect((await page({ outcome: 'exceptions', limit: '2', cursor })).entries).toHaveLength(2);
  });
});

describe('GET /remittances/{batchId} with Accept: text/csv', () => {
  const csvOf = (id: string, query: Record<string, string> = {}, as?: Parameters<TestApp['get']>[1]) =>
    t.get(`/remittances/${id}`, { query, headers: { accept: 'text/csv' }, ...as });

  it('streams every entry as RFC 4180 CSV that a standard parser reads back, hostile cells neutralised', async () => {
    const hostile = ['=HYPERLINK("http://evil")', '+61400', '-2+3', '@SUM(A1)', '\tTAB', '\rCR', 'a,b "q"\nline'];
    const donation = await donate(t, '12.30');
    // POST refuses control characters now: the references holding them are written as data stored before that.
    const id = await postBatch(t, [
      ...hostile.map((ref, i) => ({
        bankReferenceId: hasControls(ref) ? `LEGACY-${i}` : ref,
        amount: 0.5,
        donationIds: ['=1+1', 'DON-B'],
      })),
      { bankReferenceId: 'PLAIN-1', amount: 12.3, donationIds: [donation] },
    ]);
    for (const [position, ref] of hostile.entries())
      if (hasControls(ref)) await storeLegacyEntry(id, position, { bank_reference_id: ref });
    const before = await csvOf(id);
    expect(before.statusCode).toBe(200);
    // Pending entries have empty outcome and detail, and money not yet received; a quote inside a cell is doubled, the cell quoted (RFC 4180).
    expect(before.body.split('\r\n')[1]).toBe(`0,"'=HYPERLINK(""http://evil"")",0.50,'=1+1;DON-B,,,false`);
    await t.reconcile();

    const response = await csvOf(id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="remittance-${id}.csv"`);
    expect(response.body.startsWith('index,bankReferenceId,amount,donationIds,outcome,detail,fundsReceived\r\n')).toBe(
      true,
    );
    const rows = parseStrictly(response.body);
    expect(rows.map((r) => r.bankReferenceId)).toEqual([
      ...hostile.map((h) => `'${h}`.replace("'a,b", 'a,b')),
      'PLAIN-1',
    ]);
    expect(rows[0]).toEqual({
      index: '0',
      bankReferenceId: `'=HYPERLINK("http://evil")`,
      amount: '0.50',
      donationIds: `'=1+1;DON-B`,
      outcome: 'unknown_donation',
      detail: 'Unknown donation ids: =1+1, DON-B.',
      fundsReceived: 'false',
    });
    expect(rows.at(-1)).toMatchObject({ index: '7', amount: '12.30', donationIds: donation, outcome: 'matched' });
    // No cell a spreadsheet would evaluate.
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('filters by outcome without paging, and keeps errors as JSON envelopes', async () => {
    const response = await csvOf(batchId, { outcome: 'exceptions', limit: '1' });
    const rows = parse<Record<string, string>>(response.body, { columns: true });
    expect(rows.map((r) => Number(r.index))).toEqual(indexesOf((o) => o !== 'matched'));

    const bad = await csvOf(batchId, { outcome: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/json');
    expect(bad.json().error.cause).toContain('query.outcome');
    for (const response of [await csvOf(randomUUID()), await csvOf(batchId, {}, { as: t.registration })]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
    }
    expect((await csvOf(batchId, {}, { as: null })).statusCode).toBe(401);
  });
});

/** Written straight to the table, as rows stored before control characters were refused at the door. */
async function storeLegacyEntry(
  batch: string,
  position: number,
  values: { bank_reference_id?: string; donation_ids?: string[] },
) {
  await t.db
    .updateTable('remittance_entries')
    .set(values)
    .where('batch_id', '=', batch)
    .where('position', '=', position)
    .execute();
}

const hasControls = (value: string) => [...value].some((c) => c < ' ');

/**
 * Parsed as a spreadsheet reads it: a CR or LF outside quotes ends the row, whichever line end the file uses. A cell
 * left unquoted with a line break in it makes a short row, which the parser refuses.
 */
const parseStrictly = (csv: string) =>
  parse<Record<string, string>>(csv, { columns: true, record_delimiter: ['\r\n', '\n', '\r'] });

describe('a cell holding a CR or LF is quoted in every CSV export, even from data stored before the check', () => {
  it("the partner file, the operators' file and the console export read back one record per entry", async () => {
    const refs = ['\rCR', 'LF\nonly', 'mid\rCR', 'CRLF\r\nx', 'PLAIN-2'];
    const id = await postBatch(
      t,
      refs.map((_, i) => ({ bankReferenceId: `LEGACY-${i}`, amount: 1, donationIds: [`DON-LEGACY-${i}`] })),
    );
    for (const [position, ref] of refs.entries())
      await storeLegacyEntry(id, position, { bank_reference_id: ref, donation_ids: [`DON-${position}\nX`] });
    await t.reconcile();

    const partner = (await t.get(`/remittances/${id}`, { headers: { accept: 'text/csv' } })).body;
    // The cell is quoted, the CR kept as it was stored; the apostrophe is the formula neutralisation of a leading CR.
    expect(partner).toContain(`,"'\rCR",`);
    expect(partner).toContain(`,"mid\rCR",`);
    const operators = await text(await openRemittanceCsv(t.db, id, {}));
    for (const csv of [partner, operators]) {
      const rows = parseStrictly(csv);
      expect(rows.map((r) => r.bankReferenceId)).toEqual(["'\rCR", 'LF\nonly', 'mid\rCR', 'CRLF\r\nx', 'PLAIN-2']);
      expect(rows.map((r) => r.index)).toEqual(['0', '1', '2', '3', '4']);
      expect(rows[1]).toMatchObject({ amount: '1.00', donationIds: 'DON-1\nX', outcome: 'unknown_donation' });
      expect(rows[1]!.detail).toBe('Unknown donation ids: DON-1\nX.');
    }

    const consoleCsv = entriesCsv(await listBatchEntries(t.db, { batchId: id, limit: 100 }));
    const consoleRows = parseStrictly(consoleCsv);
    expect(consoleRows.map((r) => r.bankReferenceId)).toEqual(refs);
    expect(consoleRows.map((r) => r.donationIds)).toEqual(refs.map((_, i) => `DON-${i}\nX`));
  });
});

describe('the CSV export reads in chunks', () => {
  it('gives the same file whatever the chunk size, for a completed batch and for one still pending', async () => {
    const whole = (await t.get(`/remittances/${batchId}`, { headers: { accept: 'text/csv' } })).body;
    const chunked = await openRemittanceCsv(t.db, batchId, { chunkRows: 7 });
    expect(await text(chunked)).toBe(whole);
    expect(parse(whole, { columns: true })).toHaveLength(30);

    const pending = await postBatch(
      t,
      Array.from({ length: 12 }, () => ({ bankReferenceId: bankReference(), amount: 1, donationIds: ['DON-P'] })),
    );
    const onSnapshot = await text(await openRemittanceCsv(t.db, pending, { chunkRows: 5 }));
    const records = parse<Record<string, string>>(onSnapshot, { columns: true });
    expect(records.map((r) => Number(r.index))).toEqual([...Array(12).keys()]);
    expect(records.every((r) => r.outcome === '')).toBe(true);
  });
});

async function text(stream: AsyncIterable<Buffer | string>) {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe("another partner's donation, as the partner sees it", () => {
  it('is an unknown id in pages, filters, counts and the CSV; operators still see foreign_donation', async () => {
    const theirs = await donate(t, '5.00', {
      fundraiserId: '10000003',
      channel: 'Registration Integration',
      as: t.registration,
    });
    const id = await postBatch(t, [{ bankReferenceId: bankReference(), amount: 5, donationIds: [theirs] }]);
    await t.reconcile();
    const get = (query: Record<string, string>) => page(query, id);
    const all = await get({});
    expect(all.entries.map((e) => e.outcome)).toEqual(['unknown_donation']);
    expect((await get({ outcome: 'unknown_donation' })).entries).toHaveLength(1);
    expect((await get({ outcome: 'foreign_donation' })).entries).toHaveLength(0);
    const csv = await t.get(`/remittances/${id}`, { headers: { accept: 'text/csv' } });
    const [row] = parse<Record<string, string>>(csv.body, { columns: true });
    expect(row).toMatchObject({ outcome: 'unknown_donation', detail: `Unknown donation ids: ${theirs}.` });
    const operator = await text(await openRemittanceCsv(t.db, id, {}));
    expect(operator).toContain('foreign_donation');
  });
});
