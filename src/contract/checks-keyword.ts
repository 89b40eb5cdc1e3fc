/**
 * The `x-checks` keyword: rules JSON Schema cannot state, named by a schema and run by the validator in the same
 * pass as the schema (http/schemas/checks.ts implements them).
 */
export const CHECKS_KEYWORD = 'x-checks';

/** The checks a schema can name in its `x-checks` list. */
export type CheckName = 'text' | 'no-control-characters' | 'postcode-for-country';
