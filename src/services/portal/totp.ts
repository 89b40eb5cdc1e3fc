import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import { SecretBox } from '../../infrastructure/webhooks/secret-box.js';

/**
 * The portal's second factor: RFC 6238 TOTP (30 s, 6 digits, SHA-1: what every authenticator app reads) through
 * otpauth, and recovery codes. The secret is sealed at rest with the service's secret key (the webhook secrets'
 * AES-256-GCM box), bound to its user, so a database copy alone does not yield codes
 * (docs/decisions/0085-portal-second-factor.md).
 */
const PERIOD = 30;
const ISSUER = 'Fundraiser partner portal';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpUri(email: string, secret: string): string {
  return totp(email, secret).toString();
}

/** The otpauth:// URI as a QR code, an SVG document of its own (no script, no inline style). */
export function totpQrSvg(uri: string): string {
  return renderSVG(uri, { ecc: 'M', border: 2 });
}

/** The time step the code is valid for (one step of drift either way), or null. */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp('', secret).validate({ token, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD) + delta;
}

const totp = (label: string, secret: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

export class TotpSecrets {
  private readonly box: SecretBox;
  constructor(key: Buffer) {
    this.box = new SecretBox(key);
  }
  seal = (secret: string, userId: string) => this.box.seal(secret, `portal-totp:${userId}`);
  open = (sealed: string, userId: string) => this.box.open(sealed, `portal-totp:${userId}`);
}

/** Ten codes of 80 random bits, shown once as xxxx-xxxx-xxxx-xxxx (base32 without look-alikes). */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: 10 }, () => {
    const bytes = randomBytes(16);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** How a recovery code is kept and looked up: dashes, spaces and case do not matter. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .digest('base64url');

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
