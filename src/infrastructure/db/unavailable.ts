/** Codes and messages by which pg, pg-pool and PGlite say the database cannot be reached or is overloaded. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);
const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /query read timeout/i,
  /did not answer within/i,
  /Connection ended/i,
  /PGlite is closed/i,
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(err.message));
}

/** Unique-constraint violation (SQLSTATE 23505): the database refused a duplicate. */
export const isUniqueViolation = (err: unknown): boolean => (err as { code?: unknown })?.code === '23505';
