// postinstall: backports PGlite 0.5's fix of its result parser to the 0.4.6 we pin (0.5 is PostgreSQL 18, whose
// data directories the 0.4 line's PostgreSQL 17 cannot open). In 0.4.6 every query copies the instance's table of
// type parsers (`{...parsers, ...options?.parsers}`: ~316 integer keys, ~100 µs) before reading a single row — a
// third of an embedded `select 1` and of every INSERT the service makes on the embedded database. 0.5 copies it
// only when the query brings parsers of its own, as ours never do; the rows come out the same.
//
// The replacement is exact text in each of PGlite's builds (scripts/exact-edits.js says how it is applied).
import { applyExactEdits } from './exact-edits.js';

/** [file, minified text before, after]: the same one-expression change in the ES module, CommonJS and worker builds. */
const EDITS = [
  ['dist/chunk-JOTQFPBW.js', 'm={...e,...n?.parsers}', 'm=n?.parsers?{...e,...n.parsers}:e'],
  ['dist/index.cjs', '_={...t,...r?.parsers}', '_=r?.parsers?{...t,...r.parsers}:t'],
  ['dist/worker/index.cjs', 'u={...t,...r?.parsers}', 'u=r?.parsers?{...t,...r.parsers}:t'],
];

applyExactEdits('scripts/patch-pglite.js', '@electric-sql/pglite', '0.4.6', EDITS);
