import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../api-errors.js';

/**
 * Opaque page cursors: base64url JSON of where the previous page ended *and what it was a page of* (the batch, the
 * filters), followed by an HMAC of it. A cursor is not an access token — it carries nothing the caller cannot see,
 * and every page is still read under the caller's ownership — but one that was edited, built by hand, or taken
 * from another batch or another filter is refused with a 400 naming `cursor` instead of silently answering a
 * different page.
 */
export interface PageCursors {
  encode(scope: Record<string, unknown>, position: Record<string, unknown>): string;
  /** The position stored in `cursor`, if it was issued for exactly `scope`; otherwise a 400 naming the parameter. */
  decode(cursor: string, scope: Record<string, unknown>, parameter?: string): Record<string, unknown>;
}

const MAC_BYTES = 16;

/**
 * `secret` is CURSOR_SECRET. Without it the key is derived from a fixed label, so that every instance accepts
 * every other's cursors with no set-up; a deployment that wants cursors unforgeable sets the secret.
 */
export function createPageCursors(secret: string | undefined): PageCursors {
  const key = secret ?? createHash('sha256').update('fundraiser-partner-api page cursor').digest();
  const mac = (body: string) => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
  return {
    encode(scope, position) {
      const body = Buffer.from(JSON.stringify({ s: scope, p: position })).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    decode(cursor, scope, parameter = 'cursor') {
      const invalid = (why: string) => new ApiError('VALIDATION', `query.${parameter}: ${why}`);
      const [body, signature, extra] = cursor.split('.');
      if (!body || !signature || extra !== undefined) throw invalid('is not a cursor this API issued');
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw invalid('is not a cursor this API issued (altered or truncated)');
      const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
        s: Record<string, unknown>;
        p: Record<string, unknown>;
      };
      if (JSON.stringify(decoded.s) !== JSON.stringify(scope))
        throw invalid('was issued for another batch or other filters; start again without a cursor');
      return decoded.p;
    },
  };
}
