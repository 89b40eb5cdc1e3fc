import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * scripts/patch-pglite.js (npm's postinstall) backports PGlite 0.5's result-parser fix: a query copies the table of
 * type parsers only when it brings parsers of its own. These tests say the install step ran and that rows still
 * come out parsed as before, with and without a query's own parsers.
 */
describe('PGlite result parsing (scripts/patch-pglite.js)', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(async () => {
    await db.close();
  });

  it('is installed with the backport in the ES module build the service loads', () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const chunk = readFileSync(join(dirname(entry), 'chunk-JOTQFPBW.js'), 'utf8');
    expect(chunk).toContain('m=n?.parsers?{...e,...n.parsers}:e');
    expect(chunk).not.toContain('m={...e,...n?.parsers}');
  });

  it('parses base types and the array types found at start-up (text[] and bigint[] columns)', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select 42::int4 as n, 7::int8 as big, true as yes, '{"a":1}'::jsonb as doc,
              array['x','y']::text[] as names, array[1,2]::bigint[] as cents, null::text as nothing`,
    );
    expect(rows[0]).toEqual({
      n: 42,
      big: 7,
      yes: true,
      doc: { a: 1 },
      names: ['x', 'y'],
      cents: [1, 2],
      nothing: null,
    });
  });

  it("applies a query's own parsers over the instance's", async () => {
    const { rows } = await db.query<{ n: unknown; names: unknown }>(
      `select 42::int4 as n, array['x']::text[] as names`,
      [],
      { parsers: { [types.INT4]: (value: string) => `int:${value}` } },
    );
    expect(rows[0]).toEqual({ n: 'int:42', names: ['x'] });
  });
});
