import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sameSecret } from '../../src/domain/constant-time.js';

/**
 * Presented secrets and tokens are compared in constant time (docs/security.md, API2): with `sameSecret` or
 * `timingSafeEqual`, never with `===`. The scan below fails for any equality test in src/ whose operand is named
 * like a secret, unless it is listed here with the reason it is not one.
 */
const NOT_SECRETS: [file: string, fragment: string, why: string][] = [
  ['src/services/record-donation.ts', 'requestHash !== hash', 'hash of a request body (idempotency), not a secret'],
  ['src/services/idempotency.ts', 'request_hash !== scope.requestHash', 'hash of a request body, not a secret'],
  ['src/services/recurring/create-plan.ts', 'plan.request_hash !== hash', 'hash of a request body, not a secret'],
  ['src/services/recurring/one-off-debit.ts', 'debit.request_hash !== hash', 'hash of a request body, not a secret'],
  [
    'src/services/reversals/partner-reversal.ts',
    'outcome.reversal.request_hash !== hash',
    'hash of a request body, not a secret',
  ],
];

const SECRET_NAME = /(secret|token|signature|password|csrf|hmac|digest|hash)/i;
/** An equality test and its two operands (identifiers, member accesses, element accesses). */
const EQUALITY = /([\w$.[\]'"]+)\s*[!=]==?\s*([\w$.[\]'"]+)/g;
/** Testing whether a secret is there at all, or its length, reveals nothing of it. */
const PRESENCE = /^(null|undefined|true|false)$|\.(length|size)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('constant-time comparison of presented secrets', () => {
  it('sameSecret tells equal from different, whatever the lengths', () => {
    expect(sameSecret('FFGF8812XYZ', 'FFGF8812XYZ')).toBe(true);
    expect(sameSecret('FFGF8812XYZ', 'FFGF8812XYA')).toBe(false);
    expect(sameSecret('FFGF8812', 'FFGF8812XYZ')).toBe(false);
    expect(sameSecret('', 'x')).toBe(false);
    expect(sameSecret('é', 'e\u0301')).toBe(false);
  });

  it('no equality operator compares a value named like a secret in src/', () => {
    const found: string[] = [];
    for (const file of sourceFiles('src')) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const [text, left, right] of line.matchAll(EQUALITY)) {
            if (PRESENCE.test(left!) || PRESENCE.test(right!)) continue;
            if (!SECRET_NAME.test(left!) && !SECRET_NAME.test(right!)) continue;
            if (NOT_SECRETS.some(([f, fragment]) => file === f && line.includes(fragment))) continue;
            found.push(`${file}:${i + 1}: ${text}`);
          }
        });
    }
    expect(found).toEqual([]);
  });

  it('the exceptions still exist (a stale entry would hide nothing and mislead)', () => {
    for (const [file, fragment] of NOT_SECRETS) expect(readFileSync(file, 'utf8')).toContain(fragment);
  });
});
