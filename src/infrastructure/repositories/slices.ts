/**
 * `values` in consecutive slices of at most `size`, each with the index of its first value. Bulk statements take one
 * slice each, so a big input never becomes one huge parameter (its JSON or array text built at once) nor exceeds
 * PostgreSQL's 65,535 bound parameters.
 */
export function* slices<T>(values: readonly T[], size: number): Generator<{ start: number; slice: T[] }> {
  for (let start = 0; start < values.length; start += size) yield { start, slice: values.slice(start, start + size) };
}
