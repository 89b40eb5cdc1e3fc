import { describe, expect, it } from 'vitest';
import { centsToAmount, numberToCents, parseDecimalToCents, sumCents } from '../../src/domain/money.js';

describe('money is integer cents', () => {
  it.each([
    ['20', 2000],
    ['20.5', 2050],
    ['20.55', 2055],
    ['0.01', 1],
    ['0', 0],
    ['1234567890.99', 123456789099],
  ])('parses the decimal string %s as %i cents', (input, cents) => {
    expect(parseDecimalToCents(input)).toBe(cents);
  });

  it.each(['20.555', '-1', '1e3', '20.', '.5', ' 20', 'twenty', '', '12345678901'])('refuses %j', (input) => {
    expect(parseDecimalToCents(input)).toBeNull();
  });

  it('reads JSON numbers exactly as written, not through float arithmetic', () => {
    // 0.1 + 0.2 !== 0.3 in floating point; parsed as written, each is exact.
    expect(numberToCents(0.1)! + numberToCents(0.2)!).toBe(numberToCents(0.3));
    expect(numberToCents(20.1)).toBe(2010);
    expect(numberToCents(1.005)).toBe(null);
    expect(numberToCents(19.999)).toBeNull();
    expect(numberToCents(1e-7)).toBeNull();
    expect(numberToCents(Number.NaN)).toBeNull();
  });

  it('sums and displays cents exactly', () => {
    expect(sumCents([1, 2, 3])).toBe(6);
    expect(sumCents(Array.from({ length: 10_000 }, () => 10))).toBe(100_000);
    expect(centsToAmount(2050)).toBe(20.5);
  });
});
