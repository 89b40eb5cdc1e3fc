const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The last value found to be a UUID: a request's correlation id is checked twice (its log id, then its header's
 * schema), and the second check is then a comparison of strings rather than a second run of the pattern.
 */
let lastUuid = '';

/** Any UUID in its canonical hyphenated form, either case: ids we issue and correlation ids partners send. */
export function isUuid(value: string): boolean {
  if (value === lastUuid) return true;
  if (!UUID.test(value)) return false;
  lastUuid = value;
  return true;
}
