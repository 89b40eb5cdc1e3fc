import { createHash, type Hash } from 'node:crypto';
import stringify from 'safe-stable-stringify';

/**
 * A fingerprint of a request body that ignores key order, to tell a true retry from a different request: SHA-256 of
 * its stable JSON (safe-stable-stringify: keys sorted, undefined members left out).
 *
 * The bytes are fed to the hash a top-level member at a time and an array element at a time, the very bytes
 * `stringify(body)` would produce in one string: a 100,000-entry remittance batch never becomes a 9 MB string.
 */
export function requestHash(body: unknown): string {
  const hash = createHash('sha256');
  if (isPlainObject(body)) updateWithObject(hash, body);
  else hash.update(stringify(body) ?? '');
  return hash.digest('hex');
}

function updateWithObject(hash: Hash, body: Record<string, unknown>): void {
  let separator = '{';
  for (const key of Object.keys(body).sort()) {
    const value = body[key];
    const text = Array.isArray(value) ? '' : stringify(value);
    if (text === undefined) continue; // undefined, functions and symbols are left out
    hash.update(`${separator}${JSON.stringify(key)}:${text}`);
    separator = ',';
    if (Array.isArray(value)) updateWithArray(hash, value);
  }
  hash.update(separator === '{' ? '{}' : '}');
}

function updateWithArray(hash: Hash, items: readonly unknown[]): void {
  hash.update('[');
  items.forEach((item, i) => hash.update(`${i === 0 ? '' : ','}${stringify(item) ?? 'null'}`));
  hash.update(']');
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/**
 * requestHash of an object body whose one large array member is read an element at a time
 * (docs/decisions/0079-remittance-body-streamed.md): the array's elements are hashed as they arrive, the other
 * members at the end, in key order. The bytes are requestHash's whenever no other member's name sorts before the
 * array's; a member that does is hashed after the array instead (still independent of the body's key order).
 */
export class StreamedBodyHash {
  private hash = createHash('sha256');
  private count = 0;

  constructor(private readonly arrayKey: string) {
    this.hash.update(`{${JSON.stringify(arrayKey)}:[`);
  }

  element(value: unknown): void {
    this.hash.update(`${this.count === 0 ? '' : ','}${stringify(value) ?? 'null'}`);
    this.count += 1;
  }

  /** The digest, given the body's other members. */
  digest(members: Record<string, unknown>): string {
    this.hash.update(']');
    for (const key of Object.keys(members).sort()) {
      if (key === this.arrayKey) continue;
      const text = stringify(members[key]);
      if (text !== undefined) this.hash.update(`,${JSON.stringify(key)}:${text}`);
    }
    this.hash.update('}');
    return this.hash.digest('hex');
  }
}
