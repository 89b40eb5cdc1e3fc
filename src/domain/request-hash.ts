import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';

/** A fingerprint of a request body that ignores key order, to tell a true retry from a different request. */
export function requestHash(body: unknown): string {
  return createHash('sha256')
    .update(stringify(body) ?? '')
    .digest('hex');
}
