import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';

/**
 * docs/privacy.md names every column that may hold personal information: a text or JSON column of the migrated
 * database whose name says it may (a name, an address, an e-mail, a note, a body, details, who did something…).
 * A migration that adds one the inventory does not name, as personal or as "checked, not personal", fails here.
 */
const MAY_BE_PERSONAL =
  /(^|_)(email|name|names|first_name|last_name|mobile|phone|address|street|city|suburb|state|postcode|postal_code|country|recipient|delivered_to|contact|account_number|account_name|bsb|confirmation|note|notes|body|details|data|metadata|items|snippet|by|reason|reasons|purpose|subject|description|detail|error|campaigns|counts|erased|kept|id|key)$/;

/** Ids and keys are references; only those that are not (a key built from an e-mail) are checked. */
const REFERENCES = /(^|_)(id|key)$/;
const KEYS_CHECKED = new Set(['receipt_statements.email_key', 'privacy_cursors.after_id']);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.dispose();
});

describe('the personal-information inventory', () => {
  it('names every column that may hold personal information', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and data_type in ('text', 'jsonb', 'json', 'character varying', 'bytea')
      order by table_name, column_name`.execute(database.db);
    const doc = readFileSync(new URL('../../docs/privacy.md', import.meta.url), 'utf8');
    const candidates = rows
      .map((r) => `${r.table_name}.${r.column_name}`)
      .filter((name) => MAY_BE_PERSONAL.test(name.split('.')[1]!))
      .filter((name) => !REFERENCES.test(name.split('.')[1]!) || KEYS_CHECKED.has(name))
      .filter((name) => name !== 'schema_migrations.name');
    // The donors' columns are certainly among them: a check that found nothing would prove nothing.
    expect(candidates).toEqual(expect.arrayContaining(['donations.donor_email', 'receipts.donor_name']));
    const named = (name: string) => {
      const column = name.split('.')[1]!;
      return doc.includes(`\`${name}\``) || (/_by$/.test(column) && doc.includes(`\`*.${column}\``));
    };
    expect(candidates.filter((name) => !named(name))).toEqual([]);
  });
});
