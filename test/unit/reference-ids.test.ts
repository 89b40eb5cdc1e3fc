import { describe, expect, it } from 'vitest';
import { generateClientSecret } from '../../src/domain/client-credentials.js';
import { newDonationReferenceId, randomBase32 } from '../../src/domain/reference-ids.js';

describe('random identifiers (drawn from a pooled CSPRNG buffer)', () => {
  it('never repeat across many pool refills and keep their shape', () => {
    const ids = Array.from({ length: 20_000 }, newDonationReferenceId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^DON-[0-9A-HJKMNP-TV-Z]{16}$/);
    const secrets = Array.from({ length: 1000 }, generateClientSecret);
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('uses every character of the alphabet about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) for (const char of randomBase32(16)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(32);
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });
});
