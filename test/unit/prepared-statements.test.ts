import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { preparable } from '../../src/infrastructure/db/prepared-statements.js';
import { usingPostgres } from '../helpers/database.js';
import { createScratchPostgresDatabase } from '../helpers/scratch-postgres.js';

describe('which statements may be prepared', () => {
  it('takes single statements with explicit columns, count(*) included', () => {
    expect(preparable('select "id", "status" from "remittance_batches" where "id" = $1')).toBe(true);
    expect(preparable('select count(*) as n from receipts where donation_id = $1')).toBe(true);
    expect(preparable('insert into t (a) values ($1) returning id, a')).toBe(true);
  });

  it('takes products, which are not column lists', () => {
    expect(preparable("select coalesce(q.expire_seconds, 900) * interval '1 second' from q where name = $1")).toBe(
      true,
    );
    expect(preparable('select a.n*2, (a.n + 1) * $1 from a')).toBe(true);
  });

  it('refuses several statements and anything expanding *', () => {
    expect(preparable('select 1; select $1')).toBe(false);
    expect(preparable('select * from "webhook_events" where "id" = $1')).toBe(false);
    expect(preparable('insert into t (a) values ($1) returning *')).toBe(false);
    expect(preparable('select inserted.*, array(select 1) as ids from inserted where x = $1')).toBe(false);
    expect(preparable('select "b".*, $1 as n from b')).toBe(false);
    expect(preparable('select id, * from b where n = $1')).toBe(false);
    expect(preparable('SELECT DISTINCT * FROM b WHERE n = $1')).toBe(false);
    expect(preparable('select x.id from unnest($1::text[]) k(id) cross join lateral (select * from b) x')).toBe(false);
    expect(preparable('insert into t (a) values ($1)\n  returning\n  *')).toBe(false);
  });
});

// Prepared statements are the PostgreSQL driver's: the embedded database runs each statement as it comes.
describe.runIf(usingPostgres())('statements a PostgreSQL connection prepares (PostgreSQL only)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  const opened: Database[] = [];
  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!, 'fx_prep');
  });
  afterAll(async () => {
    for (const database of opened) await database.close();
    await scratch?.drop();
  });

  /** One connection, so that pg_prepared_statements is the same session's. */
  async function open(preparedStatementsMax?: number) {
    const database = await connectDatabase({ databaseUrl: scratch.url, poolMax: 1, preparedStatementsMax });
    opened.push(database);
    return database;
  }
  const prepared = async ({ db }: Database) =>
    (
      await sql<{ name: string; statement: string }>`
        select name, statement from pg_prepared_statements order by name`.execute(db)
    ).rows;
  const add = async ({ db }: Database, a: number) =>
    (await sql<{ n: number }>`select ${a}::int + 1 as n`.execute(db)).rows[0]!.n;
  const star = async ({ db }: Database, a: number) =>
    (await sql<{ n: number }>`select * from (select ${a}::int as n) as x`.execute(db)).rows[0]!.n;

  it('prepares a statement on its second use, and answers as before', async () => {
    const database = await open();
    expect(await add(database, 1)).toBe(2);
    expect(await prepared(database)).toEqual([]);
    expect([await add(database, 2), await add(database, 3), await add(database, 4)]).toEqual([3, 4, 5]);
    expect(await prepared(database)).toEqual([{ name: 'fsi_1', statement: 'select $1::int + 1 as n' }]);
  });

  it('never prepares a statement expanding *', async () => {
    const database = await open();
    expect([await star(database, 1), await star(database, 2), await star(database, 3)]).toEqual([1, 2, 3]);
    expect(await prepared(database)).toEqual([]);
  });

  it('prepares at most DB_PREPARED_STATEMENTS, and none with 0', async () => {
    const one = await open(1);
    const other = async ({ db }: Database, a: number) =>
      (await sql<{ n: number }>`select ${a}::int - 1 as n`.execute(db)).rows[0]!.n;
    for (const a of [1, 2, 3]) expect([await add(one, a), await other(one, a)]).toEqual([a + 1, a - 1]);
    expect((await prepared(one)).map((p) => p.statement)).toEqual(['select $1::int + 1 as n']);

    const none = await open(0);
    for (const a of [1, 2, 3]) expect(await add(none, a)).toBe(a + 1);
    expect(await prepared(none)).toEqual([]);
  });
});
