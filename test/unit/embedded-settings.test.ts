import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../src/infrastructure/db/connect.js';
import { usingPostgres } from '../helpers/database.js';
import { embeddedTemplate } from '../helpers/templates.js';

const dataDir = mkdtempSync(join(tmpdir(), 'fx-settings-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function settings(database: Database) {
  try {
    const { rows } = await sql<{ buffers: string; maintenance: string; matching: string }>`
      select current_setting('shared_buffers') as buffers, current_setting('maintenance_work_mem') as maintenance,
             current_setting('fundraiser.matching_work_mem') as matching`.execute(database.db);
    return rows[0];
  } finally {
    await database.close();
  }
}

const SERVICE_SETTINGS = { buffers: '8MB', maintenance: '16MB', matching: '4MB' };

// The embedded database's own settings (src/infrastructure/db/embedded.ts), whichever way it is opened.
describe.skipIf(usingPostgres())('the embedded database runs with the service settings', () => {
  it('in memory, from the migrated template and from an empty cluster', async () => {
    const template = await embeddedTemplate();
    expect(template).toBeDefined();
    expect(await settings(await connectDatabase({ dataDir: 'memory://', embeddedTemplate: template }))).toEqual(
      SERVICE_SETTINGS,
    );
    expect(await settings(await connectDatabase({ dataDir: 'memory://' }))).toEqual(SERVICE_SETTINGS);
  });

  it('in a data directory, new and reopened', async () => {
    expect(await settings(await connectDatabase({ dataDir, embeddedTemplate: await embeddedTemplate() }))).toEqual(
      SERVICE_SETTINGS,
    );
    const reopened = await connectDatabase({ dataDir });
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_tables where tablename = 'donations'`.execute(reopened.db);
    expect(rows[0]!.n).toBe(1);
    expect(await settings(reopened)).toEqual(SERVICE_SETTINGS);
  });
});
