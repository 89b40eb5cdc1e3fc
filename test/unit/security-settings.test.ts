import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { corsAllowedOrigins, hstsEnabled } from '../../src/config/security.js';
import { placeholderReason, placeholderSecrets } from '../../src/config/secrets.js';

/** A production environment with every required secret set to a generated value. */
const production = (overrides: Record<string, string> = {}) => ({
  APP_ENV: 'production',
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
  ...overrides,
});

/** Runs loadConfig and returns its refusal message ('' when it accepted the environment). */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
    return '';
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
}

describe('production refuses empty and placeholder secrets, naming the setting (never the value)', () => {
  const PLACEHOLDERS: [string, string][] = [
    ['CURSOR_SECRET', ''],
    ['CURSOR_SECRET', '   '],
    ['CURSOR_SECRET', 'changeme-changeme-changeme-changeme'],
    ['CURSOR_SECRET', 'replace-with-a-long-random-string-please'],
    ['CURSOR_SECRET', '<your cursor secret goes here, 32 chars>'],
    ['CURSOR_SECRET', 'my-super-secret-cursor-key-for-production'],
    ['CURSOR_SECRET', 'x'.repeat(40)],
    ['CURSOR_SECRET', 'abcabcabcabcabcabcabcabcabcabcabc'],
    ['WEBHOOK_SECRET_KEY', ''],
    ['WEBHOOK_SECRET_KEY', '0'.repeat(64)],
    ['WEBHOOK_SECRET_KEY', 'ab'.repeat(32)],
    ['WEBHOOK_SECRET_KEY', '0123456789abcdef'.repeat(4)],
  ];
  it.each(PLACEHOLDERS)('%s = %j', (name, value) => {
    const message = refusal(production({ [name]: value }));
    expect(message).toMatch(new RegExp(`^\\s*${name}: `, 'm'));
    if (value.trim().length > 3) expect(message).not.toContain(value);
  });

  it('lists every refused setting at once', () => {
    const message = refusal(production({ CURSOR_SECRET: 'changeme'.repeat(5), WEBHOOK_SECRET_KEY: '1'.repeat(64) }));
    expect(message).toContain('CURSOR_SECRET');
    expect(message).toContain('WEBHOOK_SECRET_KEY');
  });

  it('accepts generated secrets, and placeholders outside production (sandbox and quick start)', () => {
    expect(refusal(production({ CURSOR_SECRET: randomBytes(32).toString('base64url') }))).toBe('');
    expect(refusal({ APP_ENV: 'sit', CURSOR_SECRET: 'x'.repeat(40), WEBHOOK_SECRET_KEY: '0'.repeat(64) })).toBe('');
    expect(refusal({ APP_ENV: 'uat', CURSOR_SECRET: '' })).toBe('');
  });

  it('checks the Stripe keys and the metrics token once the schema defines them', () => {
    const env = {
      STRIPE_SECRET_KEY: 'sk_test_xxxxxxxxxxxxxxxxxxxxxxxx',
      STRIPE_WEBHOOK_SECRET: 'whsec_xxx',
      METRICS_TOKEN: '',
    };
    expect(placeholderSecrets(env, ['APP_ENV'], 'production')).toEqual([]);
    const refused = placeholderSecrets(env, Object.keys(env), 'production');
    expect(refused.map((line) => line.trim().split(':')[0])).toEqual([
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'METRICS_TOKEN',
    ]);
    expect(placeholderSecrets(env, Object.keys(env), 'staging')).toEqual([]);
  });

  /**
   * What a random value may be refused for: a template word, in base64 only (`/TODO/`, about 1e-8 per value, a risk
   * the rule accepts); the pattern rules refuse one with a chance below 1e-12 by construction (see `shapeOf` in
   * src/config/secrets.ts), so these properties cannot fail by chance: 5,000 runs each, under 1e-8 in all.
   */
  const refusedForItsPattern = (value: string) => {
    const reason = placeholderReason(value);
    return reason !== null && !(/[^0-9a-f]/i.test(value) && reason.includes('(contains "'));
  };

  it('never refuses a random secret of 16 characters or more, hex, base64 or base64url', () => {
    const encodings = ['hex', 'base64', 'base64url'] as const;
    // fast-check draws the bytes, so a failure prints a seed that reproduces it. Unbiased: uniformly, as a secret's
    // generator does; biased toward edge cases it drew twelve zero bytes (seed 210156900), which is no random secret
    // and is rightly refused. From 8 bytes: 16 hex digits, where patterns are likeliest.
    const bytes = fc.uint8Array({ minLength: 8, maxLength: 64 });
    fc.assert(
      fc.property(bytes, fc.constantFrom(...encodings), (raw, encoding) => {
        const value = Buffer.from(raw).toString(encoding);
        return value.length < 16 || !refusedForItsPattern(value);
      }),
      { numRuns: 5000, unbiased: true },
    );
  });

  it('never refuses a random value of 16 to 300 characters of any alphabet a secret is drawn from', () => {
    const ALPHABETS = [
      '0123456789',
      '0123456789abcdef',
      '0123456789ABCDEF',
      '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
    ];
    const values = fc
      .constantFrom(...ALPHABETS)
      .chain((alphabet) =>
        fc
          .array(fc.integer({ min: 0, max: alphabet.length - 1 }), { minLength: 16, maxLength: 300 })
          .map((indexes) => indexes.map((i) => alphabet[i]).join('')),
      );
    fc.assert(
      fc.property(values, (value) => !refusedForItsPattern(value)),
      { numRuns: 5000, unbiased: true },
    );
  });

  it('refuses a pattern only where a random value of that length and alphabet almost never shows it', () => {
    // 24 hex digits, 5 distinct: a random 12-byte secret once drawn (seed 623495885), refused when 8 were required.
    expect(placeholderReason('b4b4b45bbbb4fb44b4000000')).toBeNull();
    // In 24 random hex digits, 4 distinct or fewer have a chance of 6.5e-12 at most, 3 or fewer 2.0e-15.
    expect(placeholderReason('b4b4b45bbbb4fb44b4555555')).toBeNull();
    expect(placeholderReason('b4b4b45bbbb45b44b4555555')).toBe(
      'looks like a placeholder (fewer than 8 distinct characters: 3 in 24)',
    );
    // A run of 12 in 24 hex digits: 24·16^-11 = 1.4e-12; of 13: 8.5e-14.
    expect(placeholderReason(`${'7'.repeat(12)}b4e1a9c3f2d8`)).toBeNull();
    expect(placeholderReason(`${'7'.repeat(13)}b4e1a9c3f2d`)).toMatch(/repeated 8 times or more: 13 in a row/);
    // The longer the value, the fewer patterns a random one shows: only 7 hex digits is refused from 46 on
    // (C(16,7)·(7/16)^46 = 3.5e-13).
    const sevenDigits = 'bdffb7b77b9f9f722d925f95bbbdf7f5b227bd57df5d9';
    expect(placeholderReason(sevenDigits)).toBeNull();
    expect(placeholderReason(`${sevenDigits}9`)).toBe(
      'looks like a placeholder (fewer than 8 distinct characters: 7 in 46)',
    );
    // Hex counts on in its own order: 9 is followed by a.
    expect(placeholderReason('0123456789abcdef')).toMatch(/8 consecutive characters or more, .*: 16 in a row/);
  });

  it('explains each kind of refusal', () => {
    expect(placeholderReason('')).toBe('is set but empty');
    // Stripe test mode is a choice (production may start with a test key,
    // docs/decisions/0030-production-refuses-unsafe-settings.md); only a template key is refused.
    expect(placeholderReason('sk_test_51H8aVxKd93jdkA0sPq7Zr')).toBeNull();
    expect(placeholderReason('sk_test_xxxxxxxxxxxxxxxxxxxxxxxx')).toMatch(/repeated 8 times/);
    expect(placeholderReason('whsec_xxx')).toMatch(/too short/);
    expect(placeholderReason('CHANGE_ME_0123456789abcdef')).toMatch(/placeholder \(contains "CHANGE_ME"\)/);
    expect(placeholderReason('k3J9'.padEnd(30, 'z'))).toMatch(/repeated 8 times/);
    expect(placeholderReason('1212121212abab12121212abab')).toMatch(/fewer than 8 distinct/);
    expect(placeholderReason('0123456789abcdef'.repeat(4))).toMatch(/one sequence repeated/);
    expect(placeholderReason('k3J9zq0123456789Wx')).toMatch(/8 consecutive/);
    expect(placeholderReason('your-stripe-key-goes-here')).toMatch(/contains "your-"/);
    expect(placeholderReason('supersecretvalue2026')).toMatch(/contains "secret"/);
    // Mixed case is what random base64 looks like; there a word must stand apart in one case to count.
    expect(placeholderReason('Jq8TodoWk2Lp9Xz4Rt7B')).toBeNull();
    expect(placeholderReason('Jq8xtodoQk2Lp9Xz4Rt7B')).toBeNull();
    expect(placeholderReason('Jq8x/TODO/k2Lp9Xz4Rt7B')).toMatch(/contains "TODO"/);
  });
});

describe('HSTS and CORS settings', () => {
  it('HSTS is on by default everywhere but sit, and the setting decides when given', () => {
    expect(hstsEnabled(loadConfig({}))).toBe(false);
    for (const APP_ENV of ['uat', 'staging']) expect(hstsEnabled(loadConfig({ APP_ENV }))).toBe(true);
    expect(hstsEnabled(loadConfig(production()))).toBe(true);
    expect(hstsEnabled(loadConfig(production({ TLS_TERMINATED_UPSTREAM: 'false' })))).toBe(false);
    expect(hstsEnabled(loadConfig({ TLS_TERMINATED_UPSTREAM: 'true' }))).toBe(true);
  });

  it('CORS_ALLOWED_ORIGINS is empty by default and takes origins only', () => {
    expect(corsAllowedOrigins(loadConfig({}))).toEqual([]);
    const config = loadConfig({ CORS_ALLOWED_ORIGINS: 'https://shop.example, http://localhost:5173' });
    expect(corsAllowedOrigins(config)).toEqual(['https://shop.example', 'http://localhost:5173']);
    for (const bad of ['*', 'https://shop.example/path', 'shop.example', 'https://a.example,*'])
      expect(() => loadConfig({ CORS_ALLOWED_ORIGINS: bad }), bad).toThrow(/CORS_ALLOWED_ORIGINS/);
  });
});
