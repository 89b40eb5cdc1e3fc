/**
 * Where a credential is in its life, as operators read it. The service itself only asks "can it be used now"
 * (domain/client-credentials.ts); this adds the distinction between an ordinary pair and one inside a rotation's overlap.
 */
export type CredentialState = 'active' | 'retiring' | 'expired' | 'revoked';

export function credentialState(c: { expiresAt: Date | null; revokedAt: Date | null }, now: Date): CredentialState {
  if (c.revokedAt && c.revokedAt <= now) return 'revoked';
  if (c.expiresAt && c.expiresAt <= now) return 'expired';
  if (c.expiresAt) return 'retiring';
  return 'active';
}

const DAY_MS = 86_400_000;

/** The scheduled (annual) rotation is due this long after a pair was issued (spec section 5.6). */
export const DEFAULT_ROTATION_PERIOD_DAYS = 365;
/** Old and new pairs are both accepted for this long after a rotation (spec section 5.6). */
export const DEFAULT_OVERLAP_DAYS = 14;

export const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

/** Whole days from `now` until `at` (negative when `at` has passed), rounded down. */
export const daysUntil = (at: Date, now: Date) => Math.floor((at.getTime() - now.getTime()) / DAY_MS);
