import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

/** Rejects when `promise` has not settled within `ms`; the timer never outlives it. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'the operation'): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves when the database answers a trivial query within `timeoutMs` (either engine). */
export const pingDatabase = (db: Kysely<DB>, timeoutMs: number): Promise<void> =>
  withTimeout(
    sql`select 1`.execute(db).then(() => undefined),
    timeoutMs,
    'the database',
  );
