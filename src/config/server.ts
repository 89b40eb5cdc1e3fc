import { Type } from '@sinclair/typebox';

/** The environments of the contract (section 1): credentials and donations belong to one of them. */
export const Environments = ['sit', 'uat', 'staging', 'production'] as const;
export type Environment = (typeof Environments)[number];

/** Where and as what the service runs: address, base path, environment, logs, start-up and shutdown. */
export const ServerSettings = {
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
};

export function isProduction(config: { APP_ENV: string }): boolean {
  return config.APP_ENV === 'production';
}

/** Scheme, host and base path partners call: the prefix of the URLs the service gives out (Location, events). */
export function apiBaseUrl(config: {
  PUBLIC_BASE_URL?: string;
  HOST: string;
  PORT: number;
  BASE_PATH: string;
}): string {
  return `${config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`}${config.BASE_PATH}`;
}

export function shouldSeedDemoData(config: { APP_ENV: string; SEED_DEMO_DATA?: boolean }): boolean {
  if (isProduction(config)) return false;
  return config.SEED_DEMO_DATA ?? true;
}
