import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { migrate } from '../../src/infrastructure/db/migrate.js';

/**
 * A fresh, migrated database for one test file: a new database on the PostgreSQL server of TEST_DATABASE_URL when
 * it is set, otherwise embedded PGlite in memory. Same code and migrations either way.
 */
export async function createTestDatabase(): Promise<Database & { dispose(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await connectDatabase({ dataDir: 'memory://' });
    await migrate(database);
    return Object.assign(database, { dispose: () => database.close() });
  }
  const name = `fx_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await connectDatabase({ databaseUrl: url.toString(), poolMax: 5 });
  await migrate(database);
  return Object.assign(database, {
    async dispose() {
      await database.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  });
}

export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL);

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
