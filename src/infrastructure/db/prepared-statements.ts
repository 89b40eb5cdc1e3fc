import type pg from 'pg';

/**
 * Statements a connection keeps prepared (docs/decisions/0052-repeated-statements-prepared.md). Without a name,
 * node-postgres has PostgreSQL parse and plan every statement on every call. With one, the server parses it once per
 * connection and, after a few executions, reuses a generic plan when it costs no more than a fresh one.
 *
 * A text with parameters is named on its second use, so one-off statements (migrations, reports by hand) take no
 * slot; at most `max` per connection, after which new texts run unnamed as before. Never named: a text without
 * parameters (transaction control among them), one of several statements (the extended protocol refuses them), and
 * one that expands `*` (a prepared `select *` or `returning *` fails with "cached plan must not change result type"
 * once a migration run by a newer instance adds a column). A `*` expands where a column list stands: after `select`
 * (`select distinct`), `returning` or a comma, or after a table's alias and a dot; a product (`n * interval '1 s'`)
 * and `count(*)` do not. An expansion inside a subquery is refused too, though only the result's columns matter:
 * telling them apart would take a parser, and listing the subquery's columns costs nothing.
 */
interface PreparedStatementOptions {
  /** Statements named per connection; 0 names none. */
  max: number;
}

/** Texts counted per connection before the counts start again: the count is a hint, not a record. */
const COUNTED_TEXTS = 2_000;
const EXPANDS_STAR = /(?:\bselect(?:\s+distinct)?|\breturning|,)\s*\*|\.\s*\*/i;

/** Whether `text` may be prepared under a name (see above). */
export function preparable(text: string): boolean {
  return !text.includes(';') && !EXPANDS_STAR.test(text);
}

type Query = (...args: unknown[]) => unknown;

/** Makes `client` prepare the statements it runs repeatedly (see above). */
export function prepareRepeatedStatements(client: pg.PoolClient, options: PreparedStatementOptions): void {
  if (options.max <= 0) return;
  const named = new Map<string, string>();
  const seen = new Map<string, number>();
  const query = client.query.bind(client) as Query;
  const wrapped: Query = (text, values, callback) => {
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) return query(text, values, callback);
    let name = named.get(text);
    if (name === undefined && named.size < options.max && preparable(text)) {
      const uses = (seen.get(text) ?? 0) + 1;
      if (uses >= 2) {
        name = `fsi_${named.size + 1}`;
        named.set(text, name);
        seen.delete(text);
      } else {
        if (seen.size >= COUNTED_TEXTS) seen.clear();
        seen.set(text, uses);
      }
    }
    return name === undefined ? query(text, values, callback) : query({ name, text, values }, callback);
  };
  (client as unknown as { query: Query }).query = wrapped;
}
