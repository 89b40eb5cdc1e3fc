import { InvalidInputError } from './operator-errors.js';

/**
 * Operators' lists are read by key, a page at a time (docs/decisions/0074-operators-listings-by-key.md): a page ends
 * with a cursor naming its last row's key, and the next page starts after that key through the list's index, so
 * the thousandth page costs what the first does (OFFSET would read and drop every row before it).
 *
 * A cursor is the key's values as base64url JSON: opaque to the operator, who only passes it back (`--after` in the
 * CLI, the console's "Next" link). It grants nothing: every page is read with the operator's own rights.
 */
export interface Page<T> {
  items: T[];
  /** Where the next page starts; null on the last page. */
  next: string | null;
}

/** What each value of a key must be: an instant as PostgreSQL wrote it (text), a uuid, or a whole number. */
export type KeyPart = 'instant' | 'uuid' | 'integer';

type KeyValue = string | number;

/** A timestamptz as PostgreSQL writes it (ISO DateStyle): to the microsecond, with its offset. */
const INSTANT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}(?::\d{2}){0,2})$/;

const CHECKS: Record<KeyPart, (value: unknown) => boolean> = {
  instant: (v) => typeof v === 'string' && INSTANT.test(v),
  uuid: (v) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
  integer: (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0,
};

function encodeCursor(key: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The key a cursor names, each value checked against `shape`; undefined without a cursor. A cursor from another list,
 * edited or cut short is refused with `option` named, never passed to the database to fail there.
 */
export function decodeCursor(
  cursor: string | undefined,
  shape: readonly KeyPart[],
  option: string,
): KeyValue[] | undefined {
  const given = cursor?.trim();
  if (!given) return undefined;
  const refused = () =>
    new InvalidInputError(`${option}: is not a cursor this list gave (pass back the "next" of the page before).`);
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(given, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (!Array.isArray(key) || key.length !== shape.length || !shape.every((part, i) => CHECKS[part](key[i])))
    throw refused();
  return key as KeyValue[];
}

/**
 * A page from rows read with `limit + 1`: the extra row only says whether there is a next page; the cursor is the key
 * of the last row shown.
 */
export function pageOf<Row, Item>(
  rows: readonly Row[],
  limit: number,
  keyOf: (row: Row) => KeyValue[],
  item: (row: Row) => Item,
): Page<Item> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { items: shown.map(item), next: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
