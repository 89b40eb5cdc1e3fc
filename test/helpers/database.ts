import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { migrate } from '../../src/infrastructure/db/migrate.js';
import { embeddedTemplate, postgresTemplate } from './templates.js';
import { createScratchPostgresDatabase } from './scratch-postgres.js';

/**
 * A fresh, migrated database for one test file: a new database on the PostgreSQL server of TEST_DATABASE_URL when
 * it is set, otherwise embedded PGlite in memory; either starts as a copy of the run's migrated template
 * (test/global-setup.ts). Same code and migrations either way.
 */
export async function createTestDatabase(): Promise<Database & { dispose(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await connectDatabase({ dataDir: 'memory://', embeddedTemplate: await embeddedTemplate() });
    await migrate(database);
    return Object.assign(database, { dispose: () => database.close() });
  }
  const scratch = await createScratchPostgresDatabase(serverUrl, undefined, postgresTemplate());
  const database = await connectDatabase({ databaseUrl: scratch.url, poolMax: 5 });
  await migrate(database);
  return Object.assign(database, {
    async dispose() {
      try {
        await database.close();
      } finally {
        await scratch.drop();
      }
    },
  });
}

export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL);
