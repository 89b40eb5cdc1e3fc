import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Every setting the service reads, in one schema. The environment is read here, once, at start-up;
 * everything else receives a validated `Config` object and never touches `process.env`.
 */
export const Environments = ['sit', 'uat', 'staging', 'production'] as const;
export type Environment = (typeof Environments)[number];

const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '127.0.0.1', description: 'Interface to listen on; 0.0.0.0 in containers.' }),
  BASE_PATH: Type.String({ pattern: '^(/[A-Za-z0-9._~-]+)*$', default: '/v1', description: 'Path prefix of every route.' }),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'Public scheme+host, used in printed examples and mandate URLs.' })),
  APP_ENV: Type.Union(Environments.map((e) => Type.Literal(e)), { default: 'sit' }),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)), { default: 'info' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ default: './data', description: 'Embedded database directory, used when DATABASE_URL is not set.' }),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DB_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 3000 }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15000 }),
  QUOTA_DEFAULT_LIMIT: Type.Integer({ minimum: 1, default: 6000, description: 'Requests per window for a partner created without its own quota.' }),
  QUOTA_DEFAULT_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 60 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'Count quotas in Redis (exact across instances) instead of PostgreSQL.' })),
  QUOTA_SYNC_INTERVAL_MS: Type.Integer({ minimum: 10, default: 250, description: 'How often each instance merges its quota counts into the shared store.' }),
  REQUIRE_BASIC_AUTH: Type.Boolean({ default: false, description: 'Also require Authorization: Basic on every request.' }),
  CREDENTIAL_CACHE_TTL_SECONDS: Type.Integer({ minimum: 0, maximum: 60, default: 30, description: 'Bound on how long a revoked credential may still be accepted by a running instance.' }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024 }),
  MAX_REMITTANCE_ENTRIES: Type.Integer({ minimum: 1, default: 10000 }),
  SEED_DEMO_DATA: Type.Optional(Type.Boolean({ description: 'Load sandbox demo data into an empty database (default: on outside production).' })),
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, default: 10000 }),
});

export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Validates `env` against the schema; throws ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const known = Object.keys(ConfigSchema.properties);
  const raw: Record<string, unknown> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, raw));
  const errors = [...Value.Errors(ConfigSchema, converted)];
  if (errors.length > 0) {
    // URLs may carry passwords: name the variable and the rule, never echo such a value.
    const shown = (key: string, value: unknown) => (key.endsWith('_URL') ? '' : ` (got ${JSON.stringify(value)})`);
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(root)'}: ${e.message}${shown(e.path.slice(1), e.value)}`);
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  const config = converted as Config;
  if (config.BASE_PATH === '/') config.BASE_PATH = '';
  return config;
}

export function isProduction(config: Pick<Config, 'APP_ENV'>): boolean {
  return config.APP_ENV === 'production';
}

export function shouldSeedDemoData(config: Config): boolean {
  if (isProduction(config)) return false;
  return config.SEED_DEMO_DATA ?? true;
}
