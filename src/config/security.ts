import ipaddr from 'ipaddr.js';
import { isRealInstant } from '../domain/instant.js';
import { Type } from '@sinclair/typebox';

/** Settings of the protective headers and cross-origin policy (docs/security.md). */
export const SecuritySettings = {
  TLS_TERMINATED_UPSTREAM: Type.Optional(
    Type.Boolean({
      description:
        'TLS is terminated in front of the service (load balancer, proxy): every response then carries ' +
        'Strict-Transport-Security. Default: on in every environment but sit (the quick start serves plain HTTP).',
    }),
  ),
  CORS_ALLOWED_ORIGINS: Type.Optional(
    Type.String({
      pattern: '^\\s*https?://[^,/\\s]+(\\s*,\\s*https?://[^,/\\s]+)*\\s*$',
      description:
        'Comma-separated origins (scheme://host[:port]) browsers may call the API from. Unset: none; the partner ' +
        'API is server-to-server and no response grants cross-origin access.',
    }),
  ),
};

/**
 * Load balancers and proxies whose X-Forwarded-For the service believes. Unset, the client address is the socket's
 * peer: behind a balancer every partner would then share the balancer's address (docs/deploy.md).
 */
export const ProxySettings = {
  TRUST_PROXY: Type.Optional(
    Type.String({
      description:
        'Comma-separated addresses or CIDRs of the load balancers in front of the service (e.g. 10.0.0.0/8), or ' +
        'loopback, linklocal, uniquelocal. X-Forwarded-For is read only from these peers, so the client address ' +
        "(throttling, logs) is the partner's, not the balancer's; from anyone else it is ignored. Unset: trust no proxy.",
    }),
  ),
};

/** RFC 9116: where to report a vulnerability in this deployment, served as /.well-known/security.txt. */
export const SecurityContactSettings = {
  SECURITY_CONTACT: Type.Optional(
    Type.String({
      pattern: '^\\s*(mailto:|https://|tel:)[^,\\s]+(\\s*,\\s*(mailto:|https://|tel:)[^,\\s]+)*\\s*$',
      description:
        'Comma-separated contacts for security reports (mailto:, https:// or tel: URIs), the Contact lines of ' +
        '/.well-known/security.txt. Required in production; unset elsewhere, the file is not served.',
    }),
  ),
  SECURITY_TXT_EXPIRES: Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$',
      description:
        'When the security.txt contacts stop being valid (RFC 9116 Expires, ISO 8601 with an offset; less than ' +
        'a year ahead is advised). Required in production, and must be in the future at start-up.',
    }),
  ),
  SECURITY_POLICY_URL: Type.Optional(
    Type.String({
      pattern: '^https://',
      description: 'The deployment’s vulnerability disclosure policy (security.txt Policy).',
    }),
  ),
};

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** The TRUST_PROXY entries, for Fastify's trustProxy; false when no proxy is trusted. */
export function trustedProxies(config: { TRUST_PROXY?: string }): string[] | false {
  const entries = (config.TRUST_PROXY ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length === 0 ? false : entries;
}

/** Why a TRUST_PROXY entry is not an address, a CIDR or a keyword, or null. */
export function trustProxyProblems(config: { TRUST_PROXY?: string }): string[] {
  const entries = trustedProxies(config) || [];
  return entries
    .filter((entry) => !PROXY_KEYWORDS.has(entry) && !isAddressOrCidr(entry))
    .map(
      (entry) =>
        `  TRUST_PROXY: ${JSON.stringify(entry)} is not an IP address, a CIDR or loopback/linklocal/uniquelocal`,
    );
}

function isAddressOrCidr(entry: string): boolean {
  if (ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** Where SECURITY_TXT_EXPIRES is not a real date-time in the future. */
export function securityTxtExpiryProblems(config: { SECURITY_TXT_EXPIRES?: string }, now: Date): string[] {
  if (!config.SECURITY_TXT_EXPIRES) return [];
  const expires = new Date(config.SECURITY_TXT_EXPIRES);
  if (!isRealInstant(config.SECURITY_TXT_EXPIRES))
    return ['  SECURITY_TXT_EXPIRES: is not a real date-time (ISO 8601 with an offset)'];
  if (expires <= now) return ['  SECURITY_TXT_EXPIRES: is in the past; set a new expiry (less than a year ahead)'];
  return [];
}

/**
 * What production lacks to tell a reporter where to go (RFC 9116), one line per setting. Checked when the service
 * starts, like the payment provider's settings, so that tools which only read the configuration (the CLI) need not set them.
 */
export function missingSecurityContact(config: {
  APP_ENV: string;
  SECURITY_CONTACT?: string;
  SECURITY_TXT_EXPIRES?: string;
}): string[] {
  if (config.APP_ENV !== 'production') return [];
  return [
    ...(config.SECURITY_CONTACT ? [] : ['  SECURITY_CONTACT: production needs a contact for security reports']),
    ...(config.SECURITY_TXT_EXPIRES ? [] : ['  SECURITY_TXT_EXPIRES: production needs the expiry of its security.txt']),
  ];
}

export function hstsEnabled(config: { APP_ENV: string; TLS_TERMINATED_UPSTREAM?: boolean }): boolean {
  return config.TLS_TERMINATED_UPSTREAM ?? config.APP_ENV !== 'sit';
}

export function corsAllowedOrigins(config: { CORS_ALLOWED_ORIGINS?: string }): string[] {
  return (config.CORS_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
}
