import { createHash } from 'node:crypto';
import fc from 'fast-check';
import stringify from 'safe-stable-stringify';
import { describe, expect, it } from 'vitest';
import { requestHash } from '../../src/domain/request-hash.js';

const wholeStringHash = (body: unknown) =>
  createHash('sha256')
    .update(stringify(body) ?? '')
    .digest('hex');

describe('requestHash', () => {
  it('is the SHA-256 of the stable JSON of the body, fed in pieces (hashes stored before stay valid)', () => {
    const body = fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue()), fc.constant(undefined)));
    fc.assert(
      fc.property(fc.oneof(body, fc.jsonValue()), (value) => requestHash(value) === wholeStringHash(value)),
      {
        numRuns: 2000,
      },
    );
  });

  it('ignores key order and tells different bodies apart', () => {
    expect(requestHash({ a: 1, b: [1, { y: 2, x: 1 }] })).toBe(requestHash({ b: [1, { x: 1, y: 2 }], a: 1 }));
    expect(requestHash({ a: [1, 2] })).not.toBe(requestHash({ a: [2, 1] }));
    expect(requestHash({ a: [undefined] })).toBe(wholeStringHash({ a: [null] }));
  });
});
