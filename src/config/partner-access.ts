import { Type } from '@sinclair/typebox';

/** What every partner request is checked against: credentials, failed authentications, quotas and sizes. */
export const PartnerAccessSettings = {
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
  CREDENTIAL_SELF_ROTATIONS_PER_DAY: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 3,
    description:
      'Rotations a partner may make itself (POST /credentials/rotate) in 24 hours: a stolen credential must not churn pairs.',
  }),
  AUTH_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 300 }),
  CURSOR_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'Key of the HMAC on page cursors (the same on every instance); unset, a fixed key is used.',
    }),
  ),
};
