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

/** Every string and property name of `value` that cannot be stored, with its path; iterative, depth-bounded. */
export function findUnsafeText(value: unknown): TextProblem[] {
  const problems: TextProblem[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (!isSafeText(current)) problems.push({ path, message: TEXT_MESSAGE });
    } else if (typeof current === 'object' && current !== null) {
      if (path.length >= MAX_JSON_DEPTH) {
        problems.push({ path, message: `must not be nested more than ${MAX_JSON_DEPTH} levels deep` });
        continue;
      }
      const entries: [string | number, unknown][] = Array.isArray(current)
        ? current.map((item, index) => [index, item])
        : Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i]!;
        if (typeof key === 'string' && !isSafeText(key)) {
          problems.push({ path: [...path, key], message: `property name ${TEXT_MESSAGE}` });
          continue;
        }
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return problems.slice(0, MAX_PROBLEMS);
}
