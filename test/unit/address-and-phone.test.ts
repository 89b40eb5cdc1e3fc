import { describe, expect, it } from 'vitest';
import { isValidPostalCode, normaliseCountry, normaliseState } from '../../src/domain/address.js';
import { crmIdPrefix } from '../../src/domain/fundraiser-id.js';
import { normaliseMobile } from '../../src/domain/phone.js';

describe('states (section 2.5): code or full name, any case, stored as the code', () => {
  it.each([
    ['NSW', 'NSW'],
    ['nsw', 'NSW'],
    ['New South Wales', 'NSW'],
    ['new  south wales', 'NSW'],
    ['Australian Capital Territory', 'ACT'],
    [' tas ', 'TAS'],
    ['Western Australia', 'WA'],
  ])('%j → %s', (input, code) => expect(normaliseState(input)).toBe(code));

  it.each(['XX', 'New South', 'Auckland', ''])('refuses %j', (input) => expect(normaliseState(input)).toBeNull());
});

describe('countries: ISO 3166 alpha-2 or the name, stored as alpha-2', () => {
  it.each([
    ['AU', 'AU'],
    ['au', 'AU'],
    ['Australia', 'AU'],
    ['australia', 'AU'],
    ['New Zealand', 'NZ'],
    ['United Kingdom', 'GB'],
  ])('%j → %s', (input, code) => expect(normaliseCountry(input)).toBe(code));

  it.each(['XX', 'Atlantis', 'AUS'])('refuses %j', (input) => expect(normaliseCountry(input)).toBeNull());
});

describe('postcodes', () => {
  it('are four digits in Australia, or when the country is not given', () => {
    expect(isValidPostalCode('2000', 'AU')).toBe(true);
    expect(isValidPostalCode('2000', null)).toBe(true);
    expect(isValidPostalCode('200', 'AU')).toBe(false);
    expect(isValidPostalCode('20000', null)).toBe(false);
    expect(isValidPostalCode('SW1A 1AA', 'GB')).toBe(true);
  });
});

describe('mobiles: E.164 or Australian local format, stored as E.164', () => {
  it.each([
    ['0412 345 678', '+61412345678'],
    ['0412345678', '+61412345678'],
    ['+61 412 345 678', '+61412345678'],
    ['+61412345678', '+61412345678'],
    ['(02) 9374 4000', '+61293744000'],
    ['+64 21 123 4567', '+64211234567'],
  ])('%j → %s', (input, e164) => expect(normaliseMobile(input)).toBe(e164));

  it.each(['123', 'not a phone', '+61 1', '0412'])('refuses %j', (input) => expect(normaliseMobile(input)).toBeNull());
});

describe('CRM ids', () => {
  it('reduce the 18-character form to its 15-character prefix', () => {
    expect(crmIdPrefix('0015g00000Demo1AAA')).toBe('0015g00000Demo1');
    expect(crmIdPrefix('0015g00000Demo1')).toBe('0015g00000Demo1');
    expect(crmIdPrefix('10000001')).toBeNull();
  });
});
