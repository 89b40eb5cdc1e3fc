import { isProduction, type Config } from '../../config/index.js';
import { retrySchedule, webhookSecretKey } from '../../config/webhooks.js';
import type { AddressPolicy } from '../../infrastructure/webhooks/address-guard.js';
import { SecretBox } from '../../infrastructure/webhooks/secret-box.js';
import { applicationInfo } from '../../version.js';

/** What the webhook services need from the configuration, built once at start-up. */
export interface WebhookSettings {
  policy: AddressPolicy;
  secretBox: SecretBox;
  schedule: number[];
  timeoutMs: number;
  disableAfterSeconds: number;
  rotationOverlapSeconds: number;
  retentionDays: number;
  userAgent: string;
}

export function webhookSettings(config: Config): WebhookSettings {
  return {
    policy: { production: isProduction(config) },
    secretBox: new SecretBox(webhookSecretKey(config)),
    schedule: retrySchedule(config),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    disableAfterSeconds: config.WEBHOOK_DISABLE_AFTER_SECONDS,
    rotationOverlapSeconds: config.WEBHOOK_ROTATION_OVERLAP_SECONDS,
    retentionDays: config.EVENT_RETENTION_DAYS,
    userAgent: `${applicationInfo.name}-webhooks/${applicationInfo.version}`,
  };
}
