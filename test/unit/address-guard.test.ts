import { describe, expect, it } from 'vitest';
import { refusedAddress, refusedUrl } from '../../src/infrastructure/webhooks/address-guard.js';
import { postJson } from '../../src/infrastructure/webhooks/http-sender.js';

const production = { production: true };
const sandbox = { production: false };

describe('webhook address guard (SSRF)', () => {
  it('refuses private, loopback, link-local, CGNAT, unique-local and other special ranges in production', () => {
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '64:ff9b::a00:1',
    ])
      expect(refusedAddress(address, production), address).not.toBeNull();
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])
      expect(refusedAddress(address, production), address).toBeNull();
  });

  it('allows loopback outside production, but still no private range', () => {
    expect(refusedAddress('127.0.0.1', sandbox)).toBeNull();
    expect(refusedAddress('::1', sandbox)).toBeNull();
    expect(refusedAddress('10.0.0.1', sandbox)).toMatch(/private/);
  });

  it('takes only https in production', () => {
    expect(refusedUrl('http://example.com/hook', production)).toEqual({ reason: 'must use https' });
    expect(refusedUrl('https://example.com/hook', production)).toHaveProperty('url');
    expect(refusedUrl('http://localhost:8080/hook', sandbox)).toHaveProperty('url');
  });

  it('checks the resolved address at delivery time and never connects to a refused one', async () => {
    const options = { timeoutMs: 1000, policy: production, userAgent: 'test' };
    const literal = await postJson('https://127.0.0.1:9/hook', '{}', {}, options);
    expect(literal).toMatchObject({ status: null, error: expect.stringMatching(/loopback/) });
    // localhost resolves to a loopback address: refused by the lookup guard, before any connection.
    const named = await postJson('https://localhost:9/hook', '{}', {}, options);
    expect(named).toMatchObject({ status: null, error: expect.stringMatching(/loopback/) });
  });
});
