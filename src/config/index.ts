import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { canonicalTimeZone, isTimeZone } from '../domain/local-time.js';
import { BackgroundWorkSettings } from './background-work.js';
import { BankStatementSettings } from './bank-statements.js';
import { ConsoleSettings } from './console.js';
import { PortalSettings } from './portal.js';
import { DatabaseSettings } from './database.js';
import { FoundationSettings } from './foundation.js';
import { GrantSettings } from './grants.js';
import { MailSettings, mailSettingProblems } from './mail.js';
import { OperationsSettings } from './operations.js';
import { PartnerAccessSettings } from './partner-access.js';
import { PartnerNoticeSettings } from './partner-notices.js';
import { PerformanceSettings } from './performance.js';
import { PrivacySettings } from './privacy.js';
import { ReceiptSettings, receiptSettingProblems } from './receipts.js';
import { RecurringSettings } from './recurring.js';
import { RequestLogSettings } from './request-log.js';
import { isSecretSetting, placeholderSecrets } from './secrets.js';
import {
  ProxySettings,
  SecurityContactSettings,
  SecuritySettings,
  securityTxtExpiryProblems,
  trustProxyProblems,
} from './security.js';
import { ServerSettings } from './server.js';
import { TransportSettings } from './transport.js';
import { WebhookSettings } from './webhooks.js';

export { Environments, type Environment, apiBaseUrl, isProduction, shouldSeedDemoData } from './server.js';
export { reconciliationConcurrency } from './background-work.js';
export { consoleEnabled, consoleSecureCookie } from './console.js';
export { portalEnabled } from './portal.js';
export { retryDelaysDays } from './recurring.js';
export { bankMatchingSettings, type BankMatchingSettings } from './bank-statements.js';
export { abaPayer, type AbaPayer } from './grants.js';

/**
 * Every setting the service reads, in one schema assembled from one module per group (docs/deploy.md lists them
 * all). The environment is read here, once, at start-up; everything else receives a validated `Config` object and
 * never touches `process.env`.
 */
export const ConfigSchema = Type.Object({
  ...ServerSettings,
  ...DatabaseSettings,
  ...PartnerAccessSettings,
  ...BackgroundWorkSettings,
  ...RecurringSettings,
  ...FoundationSettings,
  ...TransportSettings,
  ...WebhookSettings,
  ...SecuritySettings,
  ...ProxySettings,
  ...SecurityContactSettings,
  ...OperationsSettings,
  ...PerformanceSettings,
  ...ConsoleSettings,
  ...BankStatementSettings,
  ...ReceiptSettings,
  ...MailSettings,
  ...PartnerNoticeSettings,
  ...GrantSettings,
  ...PrivacySettings,
  ...RequestLogSettings,
  ...PortalSettings,
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
  const problems = [
    // Production refuses secrets left at a template's value (docs/security.md).
    ...placeholderSecrets(env, known, config.APP_ENV),
    ...trustProxyProblems(config),
    ...receiptSettingProblems(config),
    ...mailSettingProblems(config),
    ...securityTxtExpiryProblems(config, new Date()),
    // Intl knows every IANA zone (Node carries full ICU) and throws RangeError for any other name.
    ...(isTimeZone(config.FOUNDATION_TIME_ZONE)
      ? []
      : [
          `  FOUNDATION_TIME_ZONE: must be an IANA time zone such as Australia/Sydney (got ${JSON.stringify(config.FOUNDATION_TIME_ZONE)})`,
        ]),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  if (config.BASE_PATH === '/') config.BASE_PATH = '';
  config.FOUNDATION_TIME_ZONE = canonicalTimeZone(config.FOUNDATION_TIME_ZONE);
  return config;
}
