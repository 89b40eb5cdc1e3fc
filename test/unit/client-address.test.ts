import { describe, expect, it } from 'vitest';
import { throttleUnit } from '../../src/domain/client-address.js';

describe('the unit failed authentications are counted by', () => {
  it('is a canonical IPv4 address itself', () => {
    expect(throttleUnit('192.0.2.1')).toBe('192.0.2.1');
    expect(throttleUnit('127.0.0.1')).toBe('127.0.0.1');
  });

  it('is the canonical form of an IPv4 address written another way, so no spelling counts apart', () => {
    expect(throttleUnit('0xc0.0.2.1')).toBe('192.0.2.1');
    expect(throttleUnit('3221225985')).toBe('192.0.2.1');
  });

  it('is the IPv4 client an IPv4-mapped IPv6 address maps', () => {
    expect(throttleUnit('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  it("is an IPv6 address's /64, however the address is written", () => {
    expect(throttleUnit('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttleUnit('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
  });

  it('is the text itself when it is no address at all', () => {
    expect(throttleUnit('unknown')).toBe('unknown');
  });
});
