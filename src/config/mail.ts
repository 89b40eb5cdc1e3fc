import { Type } from '@sinclair/typebox';

/**
 * Outgoing mail (docs/receipts.md, "Delivery"): the SMTP server, the sender, and where mail goes outside production.
 * SMTP_URL carries a password: like every *_URL it is never echoed in a configuration error, and never logged.
 */
export const MailSettings = {
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://[^\\s]+$',
      description:
        'smtp:// (STARTTLS when offered) or smtps:// (TLS), with user:password@ when the server asks. Unset: ' +
        'messages wait in the outbox (the console shows them) and nothing leaves the machine.',
    }),
  ),
  MAIL_FROM: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 320,
      description: 'The sender of every message, e.g. "Foundation receipts <receipts@foundation.org.au>".',
    }),
  ),
  MAIL_REDIRECT_TO: Type.Optional(
    Type.String({
      pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
      description:
        'Outside production only: the QA inbox every message is delivered to instead of its recipient. Unset ' +
        'outside production, messages are held in the outbox and no donor is ever written to.',
    }),
  ),
  MAIL_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 32,
    default: 2,
    description:
      'SMTP connections one instance opens, each carrying one message at a time: the messages it has on the wire.',
  }),
  MAIL_BATCH_SIZE: Type.Integer({
    minimum: 1,
    maximum: 500,
    default: 25,
    description:
      "Messages each of an instance's two mail-delivery workers takes from the queue at once: prepared in one transaction, sent over the MAIL_CONCURRENCY connections, recorded sent together.",
  }),
  SMTP_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 120000,
    default: 30000,
    description: 'An SMTP connection, greeting or reply slower than this fails the attempt (retried).',
  }),
};

interface MailConfig {
  APP_ENV: string;
  SMTP_URL?: string;
  MAIL_FROM?: string;
  MAIL_REDIRECT_TO?: string;
  MAIL_CONCURRENCY: number;
  MAIL_BATCH_SIZE: number;
  SMTP_TIMEOUT_MS: number;
}

/** How messages leave: through SMTP_URL, to their recipient in production, to MAIL_REDIRECT_TO elsewhere. */
export interface MailPolicy {
  smtpUrl: string | null;
  from: string;
  production: boolean;
  redirectTo: string | null;
  /** SMTP connections, one message on each at a time. */
  concurrency: number;
  /** Messages a delivery worker takes from the queue at once. */
  batchSize: number;
  timeoutMs: number;
}

export function mailPolicy(config: MailConfig): MailPolicy {
  const production = config.APP_ENV === 'production';
  return {
    smtpUrl: config.SMTP_URL ?? null,
    from: config.MAIL_FROM ?? 'Fundraiser receipts <receipts@localhost>',
    production,
    redirectTo: production ? null : (config.MAIL_REDIRECT_TO ?? null),
    concurrency: config.MAIL_CONCURRENCY,
    batchSize: config.MAIL_BATCH_SIZE,
    timeoutMs: config.SMTP_TIMEOUT_MS,
  };
}

/** Why messages wait in the outbox under these settings, or null when they can leave (docs/receipts.md, "Delivery"). */
export function mailHeldReason(config: Pick<MailConfig, 'APP_ENV' | 'SMTP_URL' | 'MAIL_REDIRECT_TO'>): string | null {
  if (!config.SMTP_URL) return HELD_WITHOUT_SMTP;
  if (config.APP_ENV !== 'production' && !config.MAIL_REDIRECT_TO) return HELD_OUTSIDE_PRODUCTION;
  return null;
}

export const HELD_WITHOUT_SMTP = 'SMTP_URL is not set: the message waits in the outbox';
export const HELD_OUTSIDE_PRODUCTION =
  'Outside production nothing is sent to a recipient, and MAIL_REDIRECT_TO is not set';

/** Production mail needs a real sender, and a redirect there would hide donors' mail: refused at start-up. */
export function mailSettingProblems(config: MailConfig): string[] {
  if (config.APP_ENV !== 'production') return [];
  return [
    ...(config.SMTP_URL && !config.MAIL_FROM ? ['  MAIL_FROM: production needs a sender once SMTP_URL is set'] : []),
    ...(config.MAIL_REDIRECT_TO ? ['  MAIL_REDIRECT_TO: is for pre-production only; unset it in production'] : []),
  ];
}
