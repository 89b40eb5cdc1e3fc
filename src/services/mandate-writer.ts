import type { Insertable, Kysely } from 'kysely';
import type { DB, MandatesTable } from '../infrastructure/db/schema.js';
import { insertMandate, insertMandates } from '../infrastructure/repositories/mandates.js';
import { directWriter, GroupCommit, type GroupCommitSettings, type RowWriter } from './group-commit.js';

/** Records one new mandate (its id is the provider's setup intent) once. */
export type MandateWriter = RowWriter<Insertable<MandatesTable>, void>;

/** One statement per mandate: MANDATE_GROUP_COMMIT=false. */
export const directMandateWriter = (db: Kysely<DB>): MandateWriter => directWriter((row) => insertMandate(db, row));

/**
 * Mandates created together share one statement (GroupCommit). On the embedded database the INSERT was a third of
 * a mandate's CPU time, most of it the statement's round trip and commit rather than the row.
 */
export const mandateGroupCommit = (db: Kysely<DB>, settings: GroupCommitSettings): MandateWriter =>
  new GroupCommit(
    {
      many: async (rows) => {
        await insertMandates(db, rows);
        return rows.map(() => undefined);
      },
      one: (row) => insertMandate(db, row),
    },
    settings,
  );
