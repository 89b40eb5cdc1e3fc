import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';

/** Settings of partner webhooks (docs/webhooks.md). */
export const WebhookSettings = {
  WEBHOOK_SECRET_KEY: Type.Optional(
    Type.String({
      pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$',
      description:
        'AES-256 key (64 hex characters or 32 bytes in base64) encrypting webhook signing secrets at rest. ' +
        'Required in production; a fixed, public development key is used elsewhere.',
    }),
  ),
  WEBHOOK_RETRY_SCHEDULE: Type.String({
    pattern: '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$',
    // About three days: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h.
    default: '5,300,1800,7200,18000,36000,50400,72000,72000',
    description: 'Seconds to wait before each retry of a failed delivery, comma-separated (jitter of ±10% is added).',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 5000 }),
  WEBHOOK_DISABLE_AFTER_SECONDS: Type.Integer({
    minimum: 1,
    default: 2 * 86400,
    description: 'An endpoint whose deliveries have all failed for this long is disabled.',
  }),
  WEBHOOK_ROTATION_OVERLAP_SECONDS: Type.Integer({
    minimum: 0,
    default: 86400,
    description: 'After a secret rotation, how long the previous secret keeps signing too.',
  }),
  EVENT_RETENTION_DAYS: Type.Integer({ minimum: 1, default: 30, description: 'Events older than this are pruned.' }),
};

// Public on purpose: outside production the secrets it protects belong to sandbox endpoints only.
const DEVELOPMENT_KEY = createHash('sha256').update('fundraiser-partner-api development webhook key').digest();

/** The key encrypting webhook secrets; production refuses to start without its own. */
export function webhookSecretKey(config: { APP_ENV: string; WEBHOOK_SECRET_KEY?: string }): Buffer {
  const value = config.WEBHOOK_SECRET_KEY;
  if (!value) {
    if (config.APP_ENV === 'production')
      throw new Error('In production WEBHOOK_SECRET_KEY must be set (32 random bytes, hex or base64).');
    return DEVELOPMENT_KEY;
  }
  return Buffer.from(value, value.length === 64 ? 'hex' : 'base64');
}

/** WEBHOOK_RETRY_SCHEDULE as seconds. */
export function retrySchedule(config: { WEBHOOK_RETRY_SCHEDULE: string }): number[] {
  return config.WEBHOOK_RETRY_SCHEDULE.split(',').map((s) => Number(s.trim()));
}
