import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { retrySchedule, webhookSecretKey } from '../../src/config/webhooks.js';
import { retryDelaySeconds } from '../../src/domain/webhooks.js';
import { SecretBox } from '../../src/infrastructure/webhooks/secret-box.js';

describe('webhook settings and rules', () => {
  it('requires WEBHOOK_SECRET_KEY in production and has a development key elsewhere', () => {
    expect(() => webhookSecretKey(loadConfig({ APP_ENV: 'production' }))).toThrow(/WEBHOOK_SECRET_KEY must be set/);
    expect(webhookSecretKey(loadConfig({}))).toHaveLength(32);
    const hex = randomBytes(32).toString('hex');
    expect(webhookSecretKey(loadConfig({ APP_ENV: 'production', WEBHOOK_SECRET_KEY: hex }))).toEqual(
      Buffer.from(hex, 'hex'),
    );
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: 'too-short' })).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('reads the retry schedule in seconds; the default spans about three days', () => {
    expect(retrySchedule(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1, 2,3' }))).toEqual([1, 2, 3]);
    const total = retrySchedule(loadConfig({})).reduce((a, b) => a + b, 0);
    expect(total / 86400).toBeGreaterThan(2.5);
    expect(total / 86400).toBeLessThan(3.5);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('adds at most ±10% jitter and stops when the schedule is exhausted', () => {
    expect(retryDelaySeconds([100, 200], 1, () => 0)).toBeCloseTo(90);
    expect(retryDelaySeconds([100, 200], 2, () => 1)).toBeCloseTo(220);
    expect(retryDelaySeconds([100, 200], 3)).toBeNull();
  });

  it('encrypts secrets so that only the same key and endpoint open them', () => {
    const box = new SecretBox(Buffer.alloc(32, 7));
    const sealed = box.seal('whsec_abc', 'endpoint-1');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed, 'endpoint-1')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'endpoint-2')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed, 'endpoint-1')).toThrow();
  });
});
