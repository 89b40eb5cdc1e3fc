import type { Kysely } from 'kysely';
import type { DB } from '../../infrastructure/db/schema.js';

/** What every operator action needs: the database, who is acting (for the audit log) and the time. */
export interface OperatorContext {
  db: Kysely<DB>;
  /** Recorded as the actor of every change. */
  operator: string;
  /** Injectable so that tests can move rotation windows without sleeping. */
  now: () => Date;
}

/** Runs `work` in one transaction with a context bound to it, so a change and its audit entry commit together. */
export function inTransaction<T>(ctx: OperatorContext, work: (tx: OperatorContext) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute((trx) => work({ ...ctx, db: trx }));
}
