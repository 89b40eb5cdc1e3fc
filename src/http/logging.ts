import type { FastifyServerOptions } from 'fastify';

/**
 * Secrets and donor contact details never reach the logs, whatever object a log line carries.
 */
export const REDACTED_PATHS = [
  'req.headers.client_secret',
  'req.headers.authorization',
  'headers.client_secret',
  'headers.authorization',
  'client_secret',
  'clientSecret',
  '*.client_secret',
  '*.clientSecret',
  'donor.email',
  'donor.mobile',
  'donor.verifiedEmail',
  'donor.billingAddress',
  '*.donor.email',
  '*.donor.mobile',
  '*.donor.verifiedEmail',
  '*.donor.billingAddress',
  'fundraiser.email',
  '*.fundraiser.email',
];

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}
