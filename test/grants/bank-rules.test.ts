import { describe, expect, it } from 'vitest';
import {
  isPayable,
  maskAccountNumber,
  normaliseAccountName,
  normaliseAccountNumber,
  payableFrom,
} from '../../src/domain/bank-account.js';
import { normaliseBsb } from '../../src/domain/bsb.js';
import { readBsbFile } from '../../src/services/grants/bank-details/bsb-file.js';

const DAY = 86_400_000;

describe('bank details: pure rules', () => {
  it('writes a BSB NNN-NNN from its accepted forms and refuses the rest', () => {
    expect(['062-000', '062000', '062 000', ' 062-000 '].map(normaliseBsb)).toEqual([
      '062-000',
      '062-000',
      '062-000',
      '062-000',
    ]);
    expect(['06-2000', '0620000', '06200', 'abc-def', '062--000', ''].map(normaliseBsb)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('takes account numbers of 5 to 9 digits, spaces and dashes dropped, and names of 1 to 32 printable characters', () => {
    expect(normaliseAccountNumber('12 345-678')).toBe('12345678');
    expect(normaliseAccountNumber('12345')).toBe('12345');
    expect(normaliseAccountNumber('123456789')).toBe('123456789');
    expect(normaliseAccountNumber('1234')).toBeNull();
    expect(normaliseAccountNumber('1234567890')).toBeNull();
    expect(normaliseAccountNumber('12a45')).toBeNull();
    expect(normaliseAccountName('  A  ')).toBe('A');
    expect(normaliseAccountName('x'.repeat(32))).toBe('x'.repeat(32));
    expect(normaliseAccountName('x'.repeat(33))).toBeNull();
    expect(normaliseAccountName('   ')).toBeNull();
    expect(normaliseAccountName('Café Club')).toBeNull();
    expect(normaliseAccountName('Tab\there')).toBeNull();
  });

  it('masks all but the last three digits', () => {
    expect(maskAccountNumber('12345678')).toBe('•••••678');
    expect(maskAccountNumber('12345')).toBe('••345');
  });

  it('pays verified details from entry plus the hold, at once when waived, never pending or rejected ones', () => {
    const enteredAt = new Date('2026-12-01T03:00:00Z');
    const verified = { status: 'verified', enteredAt, holdWaived: false };
    expect(payableFrom(verified, 7)).toEqual(new Date(enteredAt.getTime() + 7 * DAY));
    expect(isPayable(verified, 7, new Date(enteredAt.getTime() + 6 * DAY))).toBe(false);
    expect(isPayable(verified, 7, new Date(enteredAt.getTime() + 7 * DAY - 1))).toBe(false);
    expect(isPayable(verified, 7, new Date(enteredAt.getTime() + 7 * DAY))).toBe(true);
    expect(isPayable(verified, 7, new Date(enteredAt.getTime() + 8 * DAY))).toBe(true);
    expect(isPayable({ ...verified, holdWaived: true }, 7, enteredAt)).toBe(true);
    expect(isPayable(verified, 0, enteredAt)).toBe(true);
    for (const status of ['pending', 'rejected', 'superseded'])
      expect(isPayable({ ...verified, status }, 7, new Date(enteredAt.getTime() + 30 * DAY))).toBe(false);
  });

  it('reads the BSB file quoted or not, skipping bad lines by number', () => {
    const file = readBsbFile(
      '\uFEFF"062-000","CBA","Sample Sydney","1 Example St","Sydney","NSW","2000","PEH"\n' +
        '032001,WBC,Sample Lakeside,,Lakeside,VIC,3000,PEH\r\n' +
        '"083-004","NAB",""\n' +
        '"083-005","NAB","A","B","C","D","E","F","G"\n' +
        '"083-006","N A B","A"\n' +
        '"083-007","NAB","A \u0007"\n',
    );
    expect(file.branches.map((b) => `${b.bsb} ${b.bankCode} ${b.name} ${b.suburb}`)).toEqual([
      '062-000 CBA Sample Sydney Sydney',
      '032-001 WBC Sample Lakeside Lakeside',
    ]);
    expect(file.skipped.map((s) => s.line)).toEqual([3, 4, 5, 6]);
    expect(file.skipped[0]!.reason).toBe('has no branch name');
  });
});
