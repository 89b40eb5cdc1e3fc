import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { missingSecurityContact } from '../../src/config/security.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const EXPIRES = '2099-06-30T00:00:00.000Z';
let withContact: TestApp;
let without: TestApp;
beforeAll(async () => {
  withContact = await startTestApp({
    env: {
      SECURITY_CONTACT: 'mailto:security@foundation.example, https://foundation.example/report',
      SECURITY_TXT_EXPIRES: EXPIRES,
      SECURITY_POLICY_URL: 'https://foundation.example/disclosure',
      PUBLIC_BASE_URL: 'https://api.foundation.example',
    },
  });
  without = await startTestApp();
}, 180_000);
afterAll(async () => Promise.all([withContact?.close(), without?.close()]), 60_000);

describe('/.well-known/security.txt (RFC 9116)', () => {
  it('serves the deployment’s contacts, expiry, policy and canonical address, without credentials', async () => {
    const response = await withContact.app.inject({ method: 'GET', url: '/.well-known/security.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const fields = response.body
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split(': '));
    expect(fields).toEqual([
      ['Contact', 'mailto:security@foundation.example'],
      ['Contact', 'https://foundation.example/report'],
      ['Expires', EXPIRES],
      ['Policy', 'https://foundation.example/disclosure'],
      ['Preferred-Languages', 'en'],
      ['Canonical', 'https://api.foundation.example/.well-known/security.txt'],
    ]);
  });

  it('is not served where no contact is set (404 in the envelope)', async () => {
    const response = await without.app.inject({ method: 'GET', url: '/.well-known/security.txt' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('FUNDRAISER:NOT_FOUND');
  });

  it('is required in production, and an expired or unreadable expiry is refused anywhere', () => {
    expect(missingSecurityContact(loadConfig({ APP_ENV: 'production' }))).toEqual([
      '  SECURITY_CONTACT: production needs a contact for security reports',
      '  SECURITY_TXT_EXPIRES: production needs the expiry of its security.txt',
    ]);
    expect(
      missingSecurityContact(
        loadConfig({ APP_ENV: 'production', SECURITY_CONTACT: 'mailto:s@f.example', SECURITY_TXT_EXPIRES: EXPIRES }),
      ),
    ).toEqual([]);
    expect(missingSecurityContact(loadConfig({ APP_ENV: 'uat' }))).toEqual([]);
    expect(() => loadConfig({ SECURITY_TXT_EXPIRES: '2020-01-01T00:00:00Z' })).toThrow(
      /SECURITY_TXT_EXPIRES: is in the past/,
    );
    expect(() => loadConfig({ SECURITY_TXT_EXPIRES: '2030-02-31T00:00:00Z' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECURITY_CONTACT: 'security@foundation.example' })).toThrow(/SECURITY_CONTACT/);
  });

  it('refuses a TRUST_PROXY entry that is not an address, a CIDR or a keyword', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1, loopback, 2001:db8::/32' }).TRUST_PROXY).toBeDefined();
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8, balancer.internal' })).toThrow(
      /TRUST_PROXY: "balancer.internal"/,
    );
  });
});
