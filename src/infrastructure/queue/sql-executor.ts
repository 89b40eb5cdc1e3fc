import { CompiledQuery, type Kysely } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Database } from '../db/connect.js';
import type { DB } from '../db/schema.js';

/** An executor that can say when the statements it started have all finished. */
export interface TrackedExecutor extends PgBoss.Db {
  /** Resolves once every statement started so far has settled, whichever way. */
  settled(): Promise<void>;
}

/**
 * pg-boss talks to the database through `executeSql(text, values)`. Giving it ours instead of letting it open its
 * own pool means one pool on PostgreSQL and, on embedded PGlite (a single connection), that its queries queue
 * behind Kysely's instead of slipping into someone else's open transaction. Its statements are tracked because
 * pg-boss 10 completes a worker's jobs without awaiting it: its stop() can return while that completion still runs,
 * and the database must not be closed under it.
 */
export function databaseExecutor(
  database: Database,
  { onLostJobOutcome }: { onLostJobOutcome?: (err: unknown) => void } = {},
): TrackedExecutor {
  const inFlight = new Set<Promise<unknown>>();
  const tracked = <T>(statement: Promise<T>) => {
    inFlight.add(statement);
    const forget = () => inFlight.delete(statement);
    statement.then(forget, forget);
    return statement;
  };
  return {
    executeSql(text, values) {
      // Parameterless texts may be scripts of several statements (installation, maintenance under BEGIN/COMMIT),
      // which PGlite's extended protocol refuses.
      if (!values || values.length === 0) return tracked(database.runScript(text));
      const statement = run(database.db, text, values);
      if (!onLostJobOutcome || !JOB_OUTCOME.test(text)) return tracked(statement);
      return tracked(
        statement.catch((err: unknown) => {
          onLostJobOutcome(err);
          return { rows: [{ count: '0' }] };
        }),
      );
    },
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * pg-boss 10's statements that record a job's outcome: completed, or failed (and retried). Its worker sends them
 * without awaiting them, so one that fails (no connection free in time, the database gone for a moment) would be a
 * rejected promise nobody handles, which ends the process. Such a failure is reported and answered as "no job
 * changed": the job stays active until it expires, then is retried, and every job's work is idempotent
 * (docs/decisions/0094-a-lost-job-outcome-is-retried-not-fatal.md).
 */
const JOB_OUTCOME =
  /^\s*WITH\s+(?:results\s+AS\s*\(\s*UPDATE\s+\S+\.job\s+SET\s+completed_on|deleted_jobs\s+AS\s*\(\s*DELETE\s+FROM\s+\S+\.job\s+WHERE\s+name\s*=\s*\$1)/i;

/**
 * An executor bound to an open transaction, so that a job is inserted atomically with the rows that need it:
 * if the transaction rolls back, the job never existed. pg-boss only sends single parameterised statements here.
 */
export function transactionExecutor(trx: Kysely<DB>): PgBoss.Db {
  return { executeSql: (text, values) => run(trx, text, values ?? []) };
}

async function run(db: Kysely<DB>, text: string, values: unknown[]) {
  // pg turns undefined into NULL; PGlite would refuse it.
  const result = await db.executeQuery(
    CompiledQuery.raw(
      text,
      values.map((value) => (value === undefined ? null : value)),
    ),
  );
  return { rows: result.rows as Record<string, unknown>[] };
}
