import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateClientSecret, hashSecret, secretMatches, storedDigest } from '../../src/domain/client-credentials.js';

describe('client secrets against their stored hash', () => {
  it('a secret matches the digest of its own stored hash, and no other secret does', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (secret, other) => {
        const digest = storedDigest(hashSecret(secret));
        expect(secretMatches(secret, digest)).toBe(true);
        if (other !== secret) expect(secretMatches(other, digest)).toBe(false);
      }),
    );
  });

  it('stores the algorithm beside the hex digest, as rows written before were', () => {
    const secret = generateClientSecret();
    expect(hashSecret(secret)).toMatch(/^sha256\$[0-9a-f]{64}$/);
  });

  it('a stored value of another algorithm or malformed matches no secret, the empty one included', () => {
    const secret = generateClientSecret();
    const hex = hashSecret(secret).slice('sha256$'.length);
    for (const stored of [`bcrypt$${hex}`, hex, 'sha256$', `sha256$${hex.slice(2)}`, `sha256$${hex.toUpperCase()}`, ''])
      for (const presented of [secret, ''])
        expect(secretMatches(presented, storedDigest(stored)), `${stored} / ${presented}`).toBe(false);
  });
});
