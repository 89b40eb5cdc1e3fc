import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, shouldSeedDemoData } from '../../src/config/index.js';

describe('configuration is validated once, from one schema', () => {
  it('has defaults that start a sandbox on the embedded database', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, BASE_PATH: '/v1', APP_ENV: 'sit', DATA_DIR: './data' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(shouldSeedDemoData(config)).toBe(true);
  });

  it('converts numbers and booleans from strings', () => {
    const config = loadConfig({ PORT: '8080', REQUIRE_BASIC_AUTH: 'true', APP_ENV: 'uat' });
    expect(config.PORT).toBe(8080);
    expect(config.REQUIRE_BASIC_AUTH).toBe(true);
  });

  it('names every invalid variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', APP_ENV: 'prod', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', APP_ENV: 'prod', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('APP_ENV');
      expect(message).toContain('DATABASE_URL');
    }
  });

  it('never echoes a URL, which may hold a password', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/x' })).not.toThrow(/hunter2/);
  });

  it('never seeds demo data in production', () => {
    expect(shouldSeedDemoData(loadConfig({ APP_ENV: 'production', SEED_DEMO_DATA: 'true' }))).toBe(false);
  });
});
