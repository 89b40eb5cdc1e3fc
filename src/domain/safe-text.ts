/**
 * Text the database can store. PostgreSQL refuses the NUL character and unpaired UTF-16 surrogates (in text and in
 * jsonb), and JSON deep enough to exhaust the stack cannot be stored or re-serialised either: such input is a
 * validation error of the field that carries it, never a failure further down.
 */

/** Deeper JSON than any partner payload needs; bounded so no walk or serialisation can exhaust the stack. */
const MAX_JSON_DEPTH = 32;
/** Past this many bad fields the cause would only grow, not help. */
const MAX_PROBLEMS = 20;

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const isSafeText = (value: string): boolean => !value.includes('\0') && !UNPAIRED_SURROGATE.test(value);

export interface TextProblem {
  /** Keys and indexes from the value given to the walk. */
  path: (string | number)[];
  message: string;
}

const TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/**
 * Every string and property name of `value` that cannot be stored, with its path; depth-bounded, so the recursion
 * is too. It runs on every part of every request: the walk allocates nothing but the problems it finds.
 */
export function findUnsafeText(
  value: unknown,
  at: (string | number)[] = [],
  problems: TextProblem[] = [],
): TextProblem[] {
  // `at` and a shared `problems`: a body walked a part at a time (a streamed remittance batch) keeps the paths
  // and the cap of one walk over the whole body.
  visit(value, [...at], problems);
  return problems;
}

/** `path` is the walk's own, pushed and popped on the way: a problem keeps a copy. */
function visit(current: unknown, path: (string | number)[], problems: TextProblem[]): void {
  if (problems.length >= MAX_PROBLEMS) return;
  if (typeof current === 'string') {
    if (!isSafeText(current)) problems.push({ path: [...path], message: TEXT_MESSAGE });
    return;
  }
  if (typeof current !== 'object' || current === null) return;
  if (path.length >= MAX_JSON_DEPTH) {
    problems.push({ path: [...path], message: `must not be nested more than ${MAX_JSON_DEPTH} levels deep` });
    return;
  }
  const keys: (string | number)[] = Array.isArray(current) ? current.map((_, index) => index) : Object.keys(current);
  for (const key of keys) {
    if (typeof key === 'string' && !isSafeText(key)) {
      if (problems.length < MAX_PROBLEMS)
        problems.push({ path: [...path, key], message: `property name ${TEXT_MESSAGE}` });
      continue;
    }
    path.push(key);
    visit((current as Record<string | number, unknown>)[key], path, problems);
    path.pop();
  }
}

/**
 * C0 controls (U+0000–U+001F: CR, LF and tab among them), DEL (U+007F) and C1 controls (U+0080–U+009F). C1 is
 * refused too: NEL (U+0085) is a line break to Unicode-aware readers, and the others have no use in a name or an id
 * (they appear when Windows-1252 text was decoded as Latin-1, which the sender should fix, not we store).
 */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

export const CONTROL_CHARACTERS_MESSAGE =
  'must not contain control characters (line breaks, tabs, other C0 or C1 controls, or DEL)';
