import { Type } from '@sinclair/typebox';

/** The database: a PostgreSQL server at DATABASE_URL, or the embedded one in DATA_DIR. */
export const DatabaseSettings = {
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({
    default: './data',
    description: 'Embedded database directory, used when DATABASE_URL is not set.',
  }),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DB_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 3000 }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15000 }),
  DB_POOL_MODE: Type.Union([Type.Literal('session'), Type.Literal('transaction')], {
    default: 'session',
    description:
      'transaction: DATABASE_URL is a pooler in transaction mode (PgBouncer pool_mode=transaction): the statement ' +
      'timeout is set in each transaction, no statement is prepared by name, and instances find new jobs by polling ' +
      'instead of LISTEN (docs/decisions/0075-behind-a-transaction-pooler.md).',
  }),
  DB_PREPARED_STATEMENTS: Type.Integer({
    minimum: 0,
    maximum: 10_000,
    default: 200,
    description:
      'PostgreSQL only: statements each connection keeps prepared, named on their second use ' +
      '(docs/decisions/0052-repeated-statements-prepared.md). 0 prepares none. Ignored with DB_POOL_MODE=transaction.',
  }),
};
