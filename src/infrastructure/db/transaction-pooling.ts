import type pg from 'pg';

/**
 * Behind a pooler in transaction mode (PgBouncer's pool_mode=transaction) each transaction may run on another server
 * session, so nothing set on a session holds (docs/decisions/0075-behind-a-transaction-pooler.md). The statement
 * timeout, which a direct connection sends once as a startup parameter (PgBouncer refuses that parameter), is set
 * instead with `SET LOCAL` in every transaction this client runs:
 *
 * - `begin` (or `start transaction …`) is sent as `begin; set local statement_timeout = …`: one round trip, as before;
 * - a text without parameters outside a transaction (a script, a ping) gets `set local …;` in front: several
 *   statements in one simple query are one implicit transaction, which the setting lasts;
 * - a statement with parameters outside a transaction runs inside `begin; set local …` and `commit`: two more round
 *   trips, the price of a timeout that holds on whichever session the pooler picks.
 *
 * What this client was sent reads as before: the results of the added statements are dropped.
 */
export function keepTimeoutPerTransaction(client: pg.PoolClient, timeoutMs: number): void {
  const setLocal = `set local statement_timeout = ${Math.trunc(timeoutMs)}`;
  const query = client.query.bind(client) as Query;
  // pg keeps the status of the last ReadyForQuery; Kysely and pg-boss (through Kysely) wait for each statement.
  const idle = () => {
    const status = (client as unknown as { _txStatus?: string | null })._txStatus;
    return status !== 'T' && status !== 'E';
  };
  const wrapped: Query = (text, values, callback) => {
    // Only the promise form with a text is ours to rewrite: Kysely's, and through it pg-boss's.
    if (typeof text !== 'string' || typeof values === 'function' || callback !== undefined)
      return query(text, values, callback);
    const params = Array.isArray(values) ? values : [];
    if (BEGINS.test(text) && !text.includes(';')) return first(query(`${text}; ${setLocal}`));
    if (!idle() || CONTROL.test(text)) return query(text, values);
    if (params.length === 0) return withoutFirst(query(`${setLocal}; ${text}`));
    return inOwnTransaction(query, setLocal, text, params);
  };
  (client as unknown as { query: Query }).query = wrapped;
}

type Query = (...args: unknown[]) => unknown;

const BEGINS = /^\s*(?:begin|start\s+transaction)\b/i;
/** Statements that open, end or mark a transaction, or act on the session: never wrapped in a transaction. */
const CONTROL =
  /^\s*(?:begin|start|commit|end|rollback|abort|savepoint|release|prepare\s+transaction|set|reset|show|discard|listen|unlisten|vacuum)\b/i;

async function first(result: unknown): Promise<unknown> {
  const results = await result;
  return Array.isArray(results) ? results[0] : results;
}

async function withoutFirst(result: unknown): Promise<unknown> {
  const results = (await result) as unknown[];
  return results.length === 2 ? results[1] : results.slice(1);
}

async function inOwnTransaction(query: Query, setLocal: string, text: string, values: unknown[]): Promise<unknown> {
  await query(`begin; ${setLocal}`);
  let result: unknown;
  try {
    result = await query(text, values);
  } catch (err) {
    await Promise.resolve(query('rollback')).catch(() => undefined);
    throw err;
  }
  await query('commit');
  return result;
}
