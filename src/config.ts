import { availableParallelism } from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  ProxySettings,
  SecurityContactSettings,
  SecuritySettings,
  isSecretSetting,
  placeholderSecrets,
  securityTxtExpiryProblems,
  trustProxyProblems,
} from './config-security.js';
import { OperationsSettings } from './config-operations.js';
import { WebhookSettings } from './config-webhooks.js';
import { PerformanceSettings } from './config-performance.js';
import { TransportSettings } from './config-transport.js';
import { canonicalTimeZone, isTimeZone } from './domain/local-time.js';

/**
 * Every setting the service reads, in one schema. The environment is read here, once, at start-up;
 * everything else receives a validated `Config` object and never touches `process.env`.
 */
export const Environments = ['sit', 'uat', 'staging', 'production'] as const;
export type Environment = (typeof Environments)[number];

export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '127.0.0.1', description: 'Interface to listen on; 0.0.0.0 in containers.' }),
  BASE_PATH: Type.String({
    pattern: '^(/[A-Za-z0-9._~-]+)*$',
    default: '/v1',
    description: 'Path prefix of every route.',
  }),
  PUBLIC_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://',
      description: 'Public scheme+host, used in printed examples and mandate URLs.',
    }),
  ),
  OPENAPI_SERVERS: Type.Optional(
    Type.String({
      pattern: '^(sit|uat|staging|production)=https?://[^,\\s]+(,(sit|uat|staging|production)=https?://[^,\\s]+)*$',
      description: 'Other environments listed in the OpenAPI servers, e.g. uat=https://…/v1,production=https://…/v1.',
    }),
  ),
  APP_ENV: Type.Union(
    Environments.map((e) => Type.Literal(e)),
    { default: 'sit' },
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({
    default: './data',
    description: 'Embedded database directory, used when DATABASE_URL is not set.',
  }),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DB_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 3000 }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15000 }),
  QUOTA_DEFAULT_LIMIT: Type.Integer({
    minimum: 1,
    default: 6000,
    description: 'Requests per window for a partner created without its own quota.',
  }),
  QUOTA_DEFAULT_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 60 }),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://',
      description: 'Count quotas in Redis (exact across instances) instead of PostgreSQL.',
    }),
  ),
  QUOTA_STORE_TIMEOUT_MS: Type.Integer({
    minimum: 10,
    default: 250,
    description: 'A Redis quota check slower than this is counted per instance instead (Redis is taken as failing).',
  }),
  QUOTA_STORE_RETRY_MS: Type.Integer({
    minimum: 100,
    default: 2000,
    description: 'While the quota store is down, how often one request probes it again.',
  }),
  QUOTA_FALLBACK_DIVISOR: Type.Integer({
    minimum: 1,
    default: 1,
    description:
      'While the quota store is down, each instance allows 1/N of a quota (N = instance count for the same total).',
  }),
  REQUIRE_BASIC_AUTH: Type.Boolean({
    default: false,
    description: 'Also require Authorization: Basic on every request.',
  }),
  CREDENTIAL_CACHE_TTL_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 60,
    default: 30,
    description: 'Bound on how long a revoked credential may still be accepted by a running instance.',
  }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024 }),
  MAX_REMITTANCE_ENTRIES: Type.Integer({ minimum: 1, default: 10000 }),
  AUTH_FAILURE_WARN_PER_CLIENT: Type.Integer({
    minimum: 1,
    default: 10,
    description:
      'Wrong secrets for one known client_id per window that log a warning (once per window). Never a lock-out: ' +
      'a client id is not a secret, and anyone could lock its partner out.',
  }),
  AUTH_FAILURE_LIMIT_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: 50,
    description:
      'Failed authentications from one client address (an IPv6 /64) per window before that address is refused (429).',
  }),
  AUTH_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
  SEED_DEMO_DATA: Type.Optional(
    Type.Boolean({ description: 'Load sandbox demo data into an empty database (default: on outside production).' }),
  ),
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, default: 10000 }),
  SHUTDOWN_DELAY_MS: Type.Integer({
    minimum: 0,
    maximum: 60000,
    default: 0,
    description:
      'On SIGTERM, serve this long with readiness DOWN before closing the listener (behind a load balancer).',
  }),
  RECONCILIATION_CONCURRENCY: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 64,
      description:
        'Remittance batches one instance reconciles at once (each holds a database connection while it runs). ' +
        'Default: twice the CPU count, at most half of DB_POOL_MAX, at least 2 (reconciliationConcurrency()).',
    }),
  ),
  // Housekeeping (issue 19): what the scheduled job prunes, and how often it runs.
  IDEMPOTENCY_RETENTION_HOURS: Type.Integer({
    minimum: 1,
    default: 24,
    description:
      "Idempotency-Key records are kept this long; a retry after that is a new request. The donations' natural key (transaction.id) is never pruned.",
  }),
  HOUSEKEEPING_INTERVAL_SECONDS: Type.Integer({
    minimum: 10,
    default: 900,
    description: 'How often one instance runs housekeeping (expired idempotency keys, stale counters, finished jobs).',
  }),
  FINISHED_JOB_RETENTION_HOURS: Type.Integer({
    minimum: 1,
    default: 24,
    description: 'Finished background jobs stay in the job table this long, then move to the job archive.',
  }),
  JOB_ARCHIVE_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    default: 7,
    description: 'Archived jobs are deleted after this many days.',
  }),
  CURSOR_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'Key of the HMAC on page cursors (the same on every instance); unset, a fixed key is used.',
    }),
  ),
  FOUNDATION_TIME_ZONE: Type.String({
    default: 'Australia/Sydney',
    description:
      "The foundation's IANA time zone: a transaction.date sent without an offset is a wall-clock time there.",
  }),
  ...TransportSettings,
  ...WebhookSettings,
  ...SecuritySettings,
  ...ProxySettings,
  ...SecurityContactSettings,
  ...OperationsSettings,
  ...PerformanceSettings,
  CONSOLE_ENABLED: Type.Optional(
    Type.Boolean({
      description: 'Serve the operator console at /console (default: on outside production, off in production).',
    }),
  ),
  CONSOLE_SESSION_IDLE_MINUTES: Type.Integer({
    minimum: 1,
    maximum: 24 * 60,
    default: 120,
    description: 'A console session ends after this long without a request.',
  }),
  CONSOLE_SIGNIN_FAILURES_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: 20,
    description:
      'Failed console sign-ins from one address per AUTH_FAILURE_WINDOW_SECONDS before that address is refused (429).',
  }),
  CONSOLE_SECURE_COOKIE: Type.Optional(
    Type.Boolean({
      description:
        'Mark the console cookies Secure (HTTPS only); default: on in production or when PUBLIC_BASE_URL is https.',
    }),
  ),
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
    // URLs may carry passwords, and secrets are secrets: name the variable and the rule, never echo such a value.
    const shown = (key: string, value: unknown) =>
      key.endsWith('_URL') || isSecretSetting(key) ? '' : ` (got ${JSON.stringify(value)})`;
    const lines = errors.map((e) => `  ${e.path.slice(1) || '(root)'}: ${e.message}${shown(e.path.slice(1), e.value)}`);
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  const config = converted as Config;
  // Production refuses secrets left at a template's value (docs/security.md).
  const problems = [
    ...placeholderSecrets(env, known, config.APP_ENV),
    ...trustProxyProblems(config),
    ...securityTxtExpiryProblems(config, new Date()),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  if (config.BASE_PATH === '/') config.BASE_PATH = '';
  // Intl knows every IANA zone (Node carries full ICU) and throws RangeError for any other name.
  if (!isTimeZone(config.FOUNDATION_TIME_ZONE))
    throw new ConfigError(
      `Invalid configuration:\n  FOUNDATION_TIME_ZONE: must be an IANA time zone such as Australia/Sydney (got ${JSON.stringify(config.FOUNDATION_TIME_ZONE)})`,
    );
  config.FOUNDATION_TIME_ZONE = canonicalTimeZone(config.FOUNDATION_TIME_ZONE);
  return config;
}

export function isProduction(config: Pick<Config, 'APP_ENV'>): boolean {
  return config.APP_ENV === 'production';
}

/** Scheme, host and base path partners call: the prefix of the URLs the service gives out (Location, events). */
export function apiBaseUrl(config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT' | 'BASE_PATH'>): string {
  return `${config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`}${config.BASE_PATH}`;
}

/**
 * Batches reconciled at once per instance. A run is mostly waiting on the database (round trips, commits), so two
 * per core keep the CPU busy; half the pool at most leaves the other half to requests.
 */
export function reconciliationConcurrency(config: Pick<Config, 'RECONCILIATION_CONCURRENCY' | 'DB_POOL_MAX'>): number {
  if (config.RECONCILIATION_CONCURRENCY) return config.RECONCILIATION_CONCURRENCY;
  return Math.max(2, Math.min(2 * availableParallelism(), Math.floor(config.DB_POOL_MAX / 2)));
}

export function shouldSeedDemoData(config: Config): boolean {
  if (isProduction(config)) return false;
  return config.SEED_DEMO_DATA ?? true;
}

/** The console only admits operators created with the CLI, but production must opt in (and should run behind TLS). */
export function consoleEnabled(config: Config): boolean {
  return config.CONSOLE_ENABLED ?? !isProduction(config);
}

export function consoleSecureCookie(config: Config): boolean {
  return (
    config.CONSOLE_SECURE_COOKIE ?? (isProduction(config) || Boolean(config.PUBLIC_BASE_URL?.startsWith('https:')))
  );
}
