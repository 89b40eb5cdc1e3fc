// postinstall: backports PGlite 0.5's fix of its result parser to the 0.4.6 we pin (0.5 is PostgreSQL 18, whose
// data directories the 0.4 line's PostgreSQL 17 cannot open). In 0.4.6 every query copies the instance's table of
// type parsers (`{...parsers, ...options?.parsers}`: ~316 integer keys, ~100 µs) before reading a single row — a
// third of an embedded `select 1` and of every INSERT the service makes on the embedded database. 0.5 copies it
// only when the query brings parsers of its own, as ours never do; the rows come out the same.
//
// The replacement is exact text in each of PGlite's builds; a build without the old text and without the new is
// an upgraded PGlite, and this says so loudly rather than guessing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@electric-sql', 'pglite');
const VERSION = '0.4.6';

/** [file, minified text before, after]: the same one-expression change in the ES module, CommonJS and worker builds. */
const EDITS = [
  ['dist/chunk-JOTQFPBW.js', 'm={...e,...n?.parsers}', 'm=n?.parsers?{...e,...n.parsers}:e'],
  ['dist/index.cjs', '_={...t,...r?.parsers}', '_=r?.parsers?{...t,...r.parsers}:t'],
  ['dist/worker/index.cjs', 'u={...t,...r?.parsers}', 'u=r?.parsers?{...t,...r.parsers}:t'],
];

function main() {
  if (!existsSync(join(root, 'package.json'))) return; // not installed (e.g. a partial install): nothing to do
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (version !== VERSION) {
    console.warn(`scripts/patch-pglite.js: PGlite ${version} installed, written for ${VERSION}; left as it is`);
    return;
  }
  for (const [file, before, after] of EDITS) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    if (text.includes(after)) continue;
    if (!text.includes(before))
      throw new Error(`scripts/patch-pglite.js: ${file} has neither the old nor the new text`);
    writeFileSync(path, text.replace(before, after));
  }
}

main();
