import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/infrastructure/db/schema.js';
import {
  insertNewLines,
  insertStatement,
  type LineToStore,
} from '../../src/infrastructure/repositories/bank-statements.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { unique } from './support.js';

/**
 * A statement's lines are inserted a chunk at a time, the next chunk made while the last is being inserted
 * (src/infrastructure/repositories/bank-statements.ts): the chunks still reach the database one after the other, so a
 * line a chunk repeats from an earlier one is skipped, and a chunk that cannot be made fails the import cleanly.
 */
describe('statement lines inserted chunk by chunk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const line = (lineNo: number, dedupeKey: string): LineToStore => ({
    lineNo,
    account: '032000123456',
    bookedOn: '2026-11-27',
    valueOn: null,
    credit: true,
    amountCents: 1_000 + lineNo,
    description: `DIRECT CREDIT ${dedupeKey}`,
    reference: null,
    bankRef: null,
    tokens: ['DIRECT', 'CREDIT', dedupeKey],
    dedupeKey,
  });

  const newStatement = (db: Kysely<DB> = t.db) =>
    insertStatement(
      db,
      { fileName: 'chunks.csv', sha256: unique('SHA-'), format: 'csv', layout: 'test', statementRef: null },
      { read: 0, importedBy: 'test', at: t.clock.now() },
    );

  it('adds every chunk in order and skips a line an earlier chunk already added', async () => {
    const keys = Array.from({ length: 5 }, () => unique('KEY-'));
    const made: number[] = [];
    function* chunks(): Generator<LineToStore[]> {
      for (const [i, chunk] of [
        [line(1, keys[0]!), line(2, keys[1]!)],
        [line(3, keys[2]!), line(4, keys[0]!)],
        [line(5, keys[3]!), line(6, keys[4]!)],
      ].entries()) {
        made.push(i);
        yield chunk;
      }
    }
    const statementId = await newStatement();
    expect(await insertNewLines(t.db, statementId, chunks())).toBe(5);
    expect(made).toEqual([0, 1, 2]);
    const stored = await t.db
      .selectFrom('bank_lines')
      .select(['line_no', 'dedupe_key'])
      .where('statement_id', '=', statementId)
      .orderBy('line_no')
      .execute();
    expect(stored.map((l) => [Number(l.line_no), l.dedupe_key])).toEqual([
      [1, keys[0]],
      [2, keys[1]],
      [3, keys[2]],
      [5, keys[3]],
      [6, keys[4]],
    ]);
    const statement = await t.db
      .selectFrom('bank_statements')
      .select('lines_added')
      .where('id', '=', statementId)
      .executeTakeFirstOrThrow();
    expect(Number(statement.lines_added)).toBe(5);
  });

  it('fails with the error of a chunk that cannot be made while the one before is in flight, and stores nothing', async () => {
    const statementKey = unique('KEY-');
    function* chunks(): Generator<LineToStore[]> {
      yield [line(1, statementKey)];
      throw new Error('the second chunk cannot be made');
    }
    const attempt = t.db.transaction().execute(async (trx) => {
      return insertNewLines(trx, await newStatement(trx), chunks());
    });
    await expect(attempt).rejects.toThrow('the second chunk cannot be made');
    const stored = await t.db.selectFrom('bank_lines').select('id').where('dedupe_key', '=', statementKey).execute();
    expect(stored).toEqual([]);
  });
});
