import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { connectEmbedded } from './embedded.js';
import { prepareRepeatedStatements } from './prepared-statements.js';
import { keepTimeoutPerTransaction } from './transaction-pooling.js';
import type { Database } from './database.js';
import type { DB } from './schema.js';
import { pingDatabase } from './with-timeout.js';

export type { Database } from './database.js';

export interface ConnectOptions {
  databaseUrl?: string;
  dataDir?: string;
  /**
   * A new embedded database (in memory, or a data directory without a cluster yet) starts from this copy of a data
   * directory (PGlite's `dumpDataDir`) instead of an empty cluster: the test suite's migrated template, a second
   * instead of four.
   */
  embeddedTemplate?: Blob;
  poolMax?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Statements each PostgreSQL connection keeps prepared (prepared-statements.ts); 0 none. Default 200. */
  preparedStatementsMax?: number;
  /**
   * `transaction`: the URL is a pooler in transaction mode (PgBouncer pool_mode=transaction), where a connection's
   * session lasts one transaction: no startup parameters, the statement timeout set in each transaction, no named
   * statements (docs/decisions/0075-behind-a-transaction-pooler.md). Default `session`.
   */
  poolMode?: PoolMode;
  logger?: Pick<Logger, 'error' | 'warn'>;
  /** Called with each new PostgreSQL connection, after the settings above apply: tests that read statements' plans. */
  onConnect?: (client: pg.PoolClient) => void;
}

// bigint columns (and bigint[]) hold cents and counts far below 2^53: read them as numbers, as PGlite does.
const INT8 = 20;
const INT8_ARRAY = 1016;
const parseInt8Array = pg.types.getTypeParser(INT8_ARRAY as never, 'text') as (value: string) => (string | null)[];
const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === INT8_ARRAY)
      return (value: string) => parseInt8Array(value).map((item) => (item === null ? null : Number(item)));
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  },
};

export type PoolMode = 'session' | 'transaction';

export async function connectDatabase(options: ConnectOptions): Promise<Database> {
  return options.databaseUrl
    ? connectPostgres(options.databaseUrl, options)
    : connectEmbedded(options.dataDir ?? './data', options.embeddedTemplate);
}

function connectPostgres(url: string, options: ConnectOptions): Database {
  const statementTimeoutMs = options.statementTimeoutMs ?? 15000;
  const pooled = options.poolMode === 'transaction';
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    // A startup parameter of the session; PgBouncer refuses it ("unsupported startup parameter").
    ...(pooled ? {} : { statement_timeout: statementTimeoutMs }),
    query_timeout: statementTimeoutMs + 1000,
    idleTimeoutMillis: 30_000,
    types: pgTypes,
  });
  // A client losing its server must not crash the process. pg-pool listens on idle clients only; a checked-out
  // client whose socket dies emits 'error' too (its query fails separately), so every client gets a listener.
  pool.on('error', (err) => options.logger?.warn({ err: err.message }, 'idle database connection lost'));
  pool.on('connect', (client) => {
    client.on('error', (err) => options.logger?.warn({ err: err.message }, 'database connection lost'));
    // A statement prepared on one server session is unknown to (or already exists on) the next one the pooler picks.
    if (pooled) keepTimeoutPerTransaction(client, statementTimeoutMs);
    else prepareRepeatedStatements(client, { max: options.preparedStatementsMax ?? 200 });
    options.onConnect?.(client);
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const location = redactUrl(url);
  return {
    db,
    kind: 'postgres',
    location,
    async scriptTransaction(steps) {
      // Without parameters, pg sends a simple query, which may hold several statements.
      await db
        .transaction()
        .execute((trx) => steps({ db: trx, exec: async (script) => void (await sql.raw(script).execute(trx)) }));
    },
    runScript: (script) =>
      db.connection().execute(async (conn) => {
        try {
          // Without parameters, pg sends a simple query; for several statements Kysely reports no rows.
          const result = await sql.raw<Record<string, unknown>>(script).execute(conn);
          return { rows: result.rows };
        } catch (err) {
          await sql
            .raw('rollback')
            .execute(conn)
            .catch(() => undefined);
          throw err;
        }
      }),
    ping: (timeoutMs) => pingDatabase(db, timeoutMs),
    poolUse: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.poolMax ?? 10,
    }),
    close: () => db.destroy(),
  };
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}
