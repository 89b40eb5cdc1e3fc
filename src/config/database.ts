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
};
