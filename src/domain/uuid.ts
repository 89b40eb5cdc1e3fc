const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any UUID in its canonical hyphenated form, either case: ids we issue and correlation ids partners send. */
export const isUuid = (value: string): boolean => UUID.test(value);
