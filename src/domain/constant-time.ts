import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a presented secret equals the expected one, in time that depends on neither value: both are reduced to
 * SHA-256 digests (always 32 bytes, so not even the length is revealed) and compared with timingSafeEqual. Every
 * comparison of a presented secret or token goes through this or timingSafeEqual (test/unit/constant-time.test.ts).
 */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
