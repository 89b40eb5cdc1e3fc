import type { Insertable, Kysely } from 'kysely';
import type { DB, MandatesTable } from '../infrastructure/db/schema.js';
import { insertMandate, insertMandates } from '../infrastructure/repositories/mandates.js';
import type { GroupStatements, RowWriter } from './group-commit.js';

/** Records one new mandate (its id is the provider's setup intent) once. */
export type MandateWriter = RowWriter<Insertable<MandatesTable>, void>;

/**
 * How new mandates are written, alone or sharing one statement (GroupCommit). On the embedded database the INSERT
 * was a third of a mandate's CPU time, most of it the statement's round trip and commit rather than the row.
 */
export const mandateStatements = (db: Kysely<DB>): GroupStatements<Insertable<MandatesTable>, void> => ({
  many: async (rows) => {
    await insertMandates(db, rows);
    return rows.map(() => undefined);
  },
  one: (row) => insertMandate(db, row),
});
